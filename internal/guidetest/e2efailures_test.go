package guidetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestE2EFailureSummary runs tools/e2e-failures.sh, which make e2e runs on
// failure, on the real `go test -v` log of a package with a failing subtest
// and a failing parallel test: it must print each failed test's own lines,
// nothing of the passing ones, and the log's path.
func TestE2EFailureSummary(t *testing.T) {
	log := failingTestLog(t)
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

// TestE2ELiveLines: the lines `make e2e` shows while the suite runs
// (GOTEST_LINES in the Makefile, applied with grep -E as make does) are the
// results and package lines of that log, and none of a test's own lines,
// not even a status table, whose rows start "  ok".
func TestE2ELiveLines(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^GOTEST_LINES := (.*)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile has no GOTEST_LINES := line")
	}
	re := strings.ReplaceAll(string(m[1]), "$$", "$")
	shown, err := exec.Command("grep", "-E", re, failingTestLog(t)).Output()
	if err != nil {
		t.Fatalf("grep -E %q: %v", re, err)
	}
	s := string(shown)
	for _, want := range []string{"--- FAIL: TestA ", "    --- FAIL: TestA/x", "--- PASS: TestB", "--- FAIL: TestC", "FAIL\tftest"} {
		if !strings.Contains(s, want) {
			t.Errorf("shown lines lack %q:\n%s", want, s)
		}
	}
	for _, not := range []string{"own line", "passing line", "socket", "table"} {
		if strings.Contains(s, not) {
			t.Errorf("shown lines have a test's own line (%q):\n%s", not, s)
		}
	}
}

// failingTestLog writes the real `go test -v` log of a package with a
// failing subtest, a failing parallel test and a status table in a passing
// test's output, and returns its path.
func failingTestLog(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		tooltest.Missing(t, fmt.Sprintf("needs go: %v", err))
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module ftest\n\ngo 1.26\n",
		"f_test.go": `package ftest

import "testing"

func TestA(t *testing.T) {
	t.Run("x", func(t *testing.T) { t.Log("a-x own line"); t.Fatal("a-x boom") })
	t.Run("y", func(t *testing.T) { t.Log("a-y passing line"); t.Log("status table:\n  ok       socket  there\nok  \tfake table") })
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
	return log
}
