package cli

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// mountTmpfs mounts a tmpfs with opts on a new directory; it needs root,
// and the test skips saying so without it.
func mountTmpfs(t *testing.T, opts string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs (a full or read-only file system; permission bits do not stop root)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir
}

// fullDir is a directory on a file system with no space left.
func fullDir(t *testing.T) string {
	t.Helper()
	dir := mountTmpfs(t, "size=64k")
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			break // ENOSPC: full
		}
	}
	return dir
}

// immutableDir is a directory with the immutable attribute (chattr +i),
// which stops root too.
func immutableDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot make a directory immutable here (needs root and chattr): %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("chattr", "-i", dir).Run() })
	return dir
}

// nonFiniteAPIServer is a kubeconfig naming a kube-apiserver whose
// /metrics holds a webhook latency histogram with a +Inf sum.
func nonFiniteAPIServer(t *testing.T) string {
	return fakekas.Kubeconfig(t, "", fakekas.Serve(t, http.StatusOK, fakekas.NonFiniteMetrics))
}

// TestTeardownRemovesWhateverTheReport: a usage report that cannot be
// written (a full disk, a read-only directory, a file where the gather
// directory should be) or encoded never keeps the bundle on the host:
// teardown removes it all, names the report's failure and exits 10.
func TestTeardownRemovesWhateverTheReport(t *testing.T) {
	cases := []struct {
		name   string
		gather func(t *testing.T) string
		kube   func(t *testing.T) string
		codes  []int    // exits allowed
		stderr []string // one of them in the message when the exit is 10
	}{
		{"full disk", func(t *testing.T) string { return filepath.Join(fullDir(t), "gather") }, nil,
			[]int{10}, []string{"no space left on device"}},
		{"read-only directory", func(t *testing.T) string { return mountTmpfs(t, "ro,size=64k") }, nil,
			[]int{10}, []string{"read-only file system"}},
		{"immutable directory", immutableDir, nil, []int{10}, []string{"operation not permitted"}},
		{"a file where the directory should be", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "gather")
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, nil, []int{10}, []string{"not a directory"}},
		// A non-finite figure once failed the report's encoding; the
		// metrics reader now reports it as unreadable instead, and
		// either way the bundle goes.
		{"non-finite metric", func(t *testing.T) string { return filepath.Join(t.TempDir(), "gather") }, nonFiniteAPIServer,
			[]int{0, 10}, []string{"unsupported value"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := hostRenderedRoot(t)
			gather := tc.gather(t)
			args := []string{"teardown", "--root", root, "--gather", gather}
			if tc.kube != nil {
				args = append(args, "--kubeconfig", tc.kube(t))
			}
			code, out, stderr := runHostCmd(t, args...)
			t.Logf("exit %d; stderr:\n%s", code, stderr)
			if !containsInt(tc.codes, code) {
				t.Errorf("exit %d, want one of %v; stderr:\n%s", code, tc.codes, stderr)
			}
			if code == 10 && !(strings.Contains(stderr, "the teardown is done, but the usage report (what used the tunnel) failed") && containsAny(stderr, tc.stderr)) {
				t.Errorf("exit 10 without naming the report and its cause %q:\n%s", tc.stderr, stderr)
			}
			for _, rel := range []string{"etc/kubernetes/manifests/konnectivity-server-pod.yaml", "opt/openshift/konnectivity-config-override.yaml", "opt/openshift/tls/konnectivity"} {
				if _, err := os.Lstat(filepath.Join(root, rel)); !os.IsNotExist(err) {
					t.Errorf("%s is still there (%v): the report kept the bundle up\nstdout:\n%s", rel, err, out)
				}
			}
		})
	}
}

// TestTeardownReportFailureIsAWarningBehindAnother: when something else
// decides the exit (here --strict with an unreachable API server), the
// report's failure is still named, as a warning.
func TestTeardownReportFailureIsAWarningBehindAnother(t *testing.T) {
	root := hostRenderedRoot(t)
	gather := filepath.Join(t.TempDir(), "gather")
	if err := os.WriteFile(gather, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runHostCmd(t, "teardown", "--root", root, "--gather", gather, "--kubeconfig", hostDeadKubeconfig(t), "--strict")
	if code != exitUnreachable || !strings.Contains(stderr, "warning: the usage report (what used the tunnel) failed: --gather: ") {
		t.Errorf("exit %d (want %d), stderr lacks the report's warning:\n%s", code, exitUnreachable, stderr)
	}
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
