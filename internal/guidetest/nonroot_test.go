package guidetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNonRootSaysNeedsRoot runs render and status as an ordinary user
// (uid 65534, with setpriv) against roots that root rendered or owns: both
// must say they need root, not ask for another directory or for a render.
func TestNonRootSaysNeedsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root, to render a root and then drop to another user")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skipf("skipping: needs setpriv (util-linux) to run as another user: %v", err)
	}
	// The user must reach the binary and the root's top: a directory of
	// mode 0755 outside t.TempDir's private parent.
	built := bin(t) // an integration test: -short skips it and says why
	dir, err := os.MkdirTemp("", "kb-nonroot-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "konnectivity-bundle")
	data, err := os.ReadFile(filepath.Join(built, "konnectivity-bundle"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "root")
	for _, err := range []error{os.Chmod(dir, 0o755), os.WriteFile(bin, data, 0o755), os.Mkdir(root, 0o755)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(bin, "render", "--overlay", "upi", "--root", root).CombinedOutput(); err != nil {
		t.Fatalf("render as root: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "--overlay", "upi", "--root", "/"}, "/ is not writable by uid 65534: render needs root"},
		{[]string{"status", "--root", root}, "status needs root"},
	} {
		out, err := exec.Command(setpriv, append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", bin}, tc.args...)...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) || strings.Contains(string(out), "run konnectivity-bundle render") {
			t.Errorf("%q as uid 65534: %v, want a failure saying %q:\n%s", tc.args, err, tc.want, out)
		}
	}
}
