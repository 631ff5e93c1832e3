package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostDeadKubeconfig points at a port nothing listens on.
func hostDeadKubeconfig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
users:
- name: u
  user: {token: t}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func hostRenderedRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if code, _, stderr := runHostCmd(t, hostRenderArgs(root, "-q")...); code != 0 {
		t.Fatalf("render: exit %d: %s", code, stderr)
	}
	return root
}

func TestTeardownCommandExitCodes(t *testing.T) {
	cases := []struct {
		name   string
		args   func(root string) []string
		code   int
		stderr string
	}{
		{"files only", func(r string) []string { return []string{"teardown", "--root", r} }, 0, "no --kubeconfig"},
		{"unreachable API server", func(r string) []string {
			return []string{"teardown", "--root", r, "--kubeconfig", hostDeadKubeconfig(t)}
		}, 0, "warning: API server unreachable"},
		{"unreachable with --strict", func(r string) []string {
			return []string{"teardown", "--root", r, "--kubeconfig", hostDeadKubeconfig(t), "--strict"}
		}, 3, "--strict: API server unreachable"},
		{"missing kubeconfig", func(r string) []string {
			return []string{"teardown", "--root", r, "--kubeconfig", filepath.Join(r, "nope")}
		}, 1, "--kubeconfig"},
		{"missing root", func(string) []string { return []string{"teardown"} }, 2, "--root is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runHostCmd(t, tc.args(hostRenderedRoot(t))...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d (want %d), stderr (want %q):\n%s", code, tc.code, tc.stderr, stderr)
			}
		})
	}
}

func TestTeardownCommandRemovesStaticPodFirst(t *testing.T) {
	root := hostRenderedRoot(t)
	code, out, _ := runHostCmd(t, "teardown", "--root", root)
	first := strings.SplitN(out, "\n", 2)[0]
	if code != 0 || first != "removed   "+filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml") {
		t.Errorf("exit %d, first line %q", code, first)
	}
	if _, err := os.Stat(filepath.Join(root, "opt/openshift/tls/konnectivity")); !os.IsNotExist(err) {
		t.Errorf("certificate directory still there: %v", err)
	}
}
