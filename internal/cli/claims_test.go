package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// TestRenderReportsItsRecoveryEvenWhenItFails: a render that finishes an
// interrupted run and then stops (here refused by a file it did not write)
// still says what it changed first (issue 19 point 3: the recovery used to
// go unreported on every error after it).
func TestRenderReportsItsRecoveryEvenWhenItFails(t *testing.T) {
	root := t.TempDir()
	journal := filepath.Join(root, hostlayout.JournalPath)
	pod := filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")
	for _, p := range []string{journal, pod} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// An interrupted run with every new file in place: only its journal is left.
	if err := os.WriteFile(journal, []byte(fmt.Sprintf(`{"version": %d, "command": "render", "ops": []}`, hostlayout.StateVersion)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pod, []byte("not ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runHostCmd(t, hostRenderArgs(root)...)
	if code != exitRefused {
		t.Fatalf("exit %d, want %d (refused):\n%s", code, exitRefused, stderr)
	}
	if !strings.Contains(stderr, "recovered: an interrupted render was completed") {
		t.Errorf("the recovery went unreported:\n%s", stderr)
	}
}
