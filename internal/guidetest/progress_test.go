package guidetest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestProgressReports runs tools/progress.sh, which every long step of make
// runs under, around a command that waits (up to a minute) until a "still
// running" line has been printed and then fails: the lines must say what
// started, that it is still running and in which test of its go test log,
// and that it failed with the command's status, which progress.sh returns.
func TestProgressReports(t *testing.T) {
	dir := t.TempDir()
	log, out := filepath.Join(dir, "test.log"), filepath.Join(dir, "progress.txt")
	stderr, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	script := `echo "=== RUN   TestSlow/part" >> "$1"
for i in $(seq 600); do grep -q "still running" "$2" && exit 3; sleep 0.1; done
exit 9`
	cmd := exec.Command(filepath.Join(tooltest.RepoRoot(), "tools", "progress.sh"), "slow step", "bash", "-c", script, "bash", log, out)
	cmd.Env = append(os.Environ(), "KB_PROGRESS_INTERVAL=1", "KB_PROGRESS_LOG="+log)
	cmd.Stderr = stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("progress.sh returned %v, want the command's exit status 3 (9: no still-running line within a minute)", err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"slow step: started at ", "slow step: still running after ", "s (in TestSlow/part)", "slow step: FAILED (exit 3) after "} {
		if !strings.Contains(string(got), want) {
			t.Errorf("progress lines lack %q:\n%s", want, got)
		}
	}
}
