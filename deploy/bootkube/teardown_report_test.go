package bootkube

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// directPodman stands in for podman run: it runs the binary built from this
// checkout on the host with /host replaced by the volume's host side, so
// the stage's handling of teardown's exit codes is tested without an image.
const directPodman = `#!/usr/bin/env bash
set -euo pipefail
shift # run
host=
while [[ $1 == -* ]]; do
  case $1 in
    --volume) host=${2%:/host}; shift 2 ;;
    --env | --user | --security-opt) shift 2 ;;
    *) shift ;;
  esac
done
shift # the image
args=()
for a in "$@"; do
  [[ $a == /host* ]] && a=$host${a#/host}
  args+=("$a")
done
exec "$KB_SELF" "${args[@]}"
`

// TestStageTeardownRemovesWhateverTheReport: the bootkube teardown stage
// always passes --gather; when the gather directory is full or read-only,
// or the report cannot be encoded, teardown still removes the bundle
// (exit 10), and the stage logs it, leaves the .done marker and succeeds,
// so the tunnel never stays up after bootstrap because of a log file.
func TestStageTeardownRemovesWhateverTheReport(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a full or read-only tmpfs at the gather directory")
	}
	self := tooltest.BuildSelf(t, t.TempDir())
	podman := filepath.Join(t.TempDir(), "podman")
	if err := os.WriteFile(podman, []byte(directPodman), 0o755); err != nil {
		t.Fatal(err)
	}
	const gatherRel = "var/log/bootstrap-control-plane/konnectivity"
	for _, tc := range []struct {
		name  string
		mount string // tmpfs options at the gather directory; "" for none
		fill  bool
		kube  bool   // a kube-apiserver whose metrics hold a non-finite figure
		why   string // "" when the report may also succeed
	}{
		{"full disk", "size=64k", true, false, "no space left on device"},
		{"read-only directory", "ro,size=64k", false, false, "read-only file system"},
		// A non-finite figure once failed the report's encoding; the
		// metrics reader now reports it as unreadable, and either way
		// the bundle goes.
		{"non-finite metric", "", false, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			env := []string{"PODMAN=" + podman, "KB_SELF=" + self, "CLUSTER_KUBECONFIG=", "HOST_ROOT=" + root,
				"KONNECTIVITY_BUNDLE_IMAGE=unused", "KONNECTIVITY_IMAGE=" + taggedProxyImage, "KONNECTIVITY_PROXY_VERSION=v0.28", "OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP=192.0.2.10"}
			if _, stderr, err := runStage(env, "render"); err != nil {
				t.Fatalf("render stage: %v\n%s", err, stderr)
			}
			gather := filepath.Join(root, gatherRel)
			if err := os.MkdirAll(gather, 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.mount != "" {
				if out, err := exec.Command("mount", "-t", "tmpfs", "-o", tc.mount, "tmpfs", gather).CombinedOutput(); err != nil {
					t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
				}
				t.Cleanup(func() { _ = exec.Command("umount", gather).Run() })
			}
			if tc.fill {
				fill(t, filepath.Join(gather, "filler"))
			}
			if tc.kube {
				env = append(env, "CLUSTER_KUBECONFIG=/kubeconfig")
				fakekas.Kubeconfig(t, filepath.Join(root, "kubeconfig"), fakekas.Serve(t, http.StatusOK, fakekas.NonFiniteMetrics))
			}
			_, stderr, err := runStage(env, "teardown")
			t.Logf("teardown stage:\n%s", stderr)
			if err != nil {
				t.Errorf("teardown stage failed: %v", err)
			}
			named := strings.Contains(stderr, "the bundle is removed, but the usage report was not gathered")
			if tc.why != "" && (!named || !strings.Contains(stderr, tc.why)) {
				t.Errorf("the stage's log does not name the report's failure (%q)", tc.why)
			}
			if _, err := os.Stat(filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")); !os.IsNotExist(err) {
				t.Errorf("the static pod manifest is still there: the tunnel stays up (%v)", err)
			}
			if _, err := os.Stat(filepath.Join(root, "opt/openshift/konnectivity-teardown.done")); err != nil {
				t.Errorf("no teardown .done marker: %v", err)
			}
		})
	}
}

// runStage runs konnectivity.sh with env only (no podman settings).
func runStage(env []string, args ...string) (string, string, error) {
	cmd := exec.Command(filepath.Join(tooltest.RepoRoot(), "deploy", "bootkube", "konnectivity.sh"), args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// fill writes to path until the file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			return
		}
	}
}
