package guidetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestUserOverlayUnderOverlays: a user who keeps their overlay in
// overlays/ of the clone (instead of outside it, as docs/upi.md shows)
// still gets a working make diff (it compares the shipped overlays, one per
// golden file) and a binary that does not embed their overlay.
func TestUserOverlayUnderOverlays(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		tooltest.Missing(t, fmt.Sprintf("needs make: %v", err))
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		tooltest.Missing(t, fmt.Sprintf("needs go: %v", err))
	}
	sb := newSandbox(t, "konnectivity-bundle")
	mine := filepath.Join(sb.repo, "overlays", "my-cluster")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	k := "resources:\n- ../upi\ntransformers:\n- ../../base/check\n"
	if err := os.WriteFile(filepath.Join(mine, "kustomization.yaml"), []byte(k), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + filepath.Dir(goBin) + ":" + sb.path}
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOTOOLCHAIN"} {
		if out, err := exec.Command(goBin, "env", v).Output(); err == nil {
			env = append(env, v+"="+strings.TrimSpace(string(out)))
		}
	}
	out, err := sb.run("make diff && bin/konnectivity-bundle build --help && bin/konnectivity-bundle build overlays/my-cluster >/dev/null", env...)
	if err != nil {
		t.Fatalf("make diff or the built binary failed with a user overlay under overlays/: %v\n%s", err, lastLines(out, 40))
	}
	if strings.Contains(out, "my-cluster") {
		t.Errorf("the user overlay shows up in make diff or among the embedded overlays:\n%s", lastLines(out, 40))
	}
	if got := strings.Count(out, "no differences"); got != 5 {
		t.Errorf("make diff compared %d overlays without differences, want the 5 shipped ones:\n%s", got, lastLines(out, 40))
	}
}
