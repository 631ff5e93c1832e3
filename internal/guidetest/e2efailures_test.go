package guidetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestE2EFailureSummary runs tools/e2e-failures.sh, which make e2e runs on
// failure, on the real `go test -v` log of a package with a failing subtest
// and a failing parallel test: it must print each failed test's own lines,
// nothing of the passing ones, and the log's path.
func TestE2EFailureSummary(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("skipping: needs go: %v", err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module ftest\n\ngo 1.26\n",
		"f_test.go": `package ftest

import "testing"

func TestA(t *testing.T) {
	t.Run("x", func(t *testing.T) { t.Log("a-x own line"); t.Fatal("a-x boom") })
	t.Run("y", func(t *testing.T) { t.Log("a-y passing line") })
}
func TestB(t *testing.T) { t.Parallel(); t.Log("b passing line") }
func TestC(t *testing.T) { t.Parallel(); t.Log("c own line"); t.Error("c failed") }
`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goBin, "test", "-v", "-count=1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, _ := cmd.CombinedOutput() // fails on purpose
	log := filepath.Join(dir, "e2e.log")
	if err := os.WriteFile(log, out, 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := exec.Command(filepath.Join(tooltest.RepoRoot(), "tools", "e2e-failures.sh"), log).CombinedOutput()
	if err != nil {
		t.Fatalf("e2e-failures.sh: %v\n%s", err, sum)
	}
	s := string(sum)
	for _, want := range []string{"===== TestA/x", "a-x own line", "a-x boom", "===== TestC", "c own line", "c failed", "full log: " + log} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	for _, not := range []string{"passing line", "--- PASS", "===== TestA:"} {
		if strings.Contains(s, not) {
			t.Errorf("summary has %q:\n%s", not, s)
		}
	}
}
