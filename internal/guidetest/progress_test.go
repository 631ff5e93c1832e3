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
	t.Parallel()
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
	cmd.Env = append(os.Environ(), "KB_PROGRESS_INTERVAL=0.2", "KB_PROGRESS_LOG="+log)
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

// TestProgressNamesRunningPackages: with a go test -json log (make test's
// unit stage), the "still running" line names every package started and
// not finished, in start order, without the module path, each with the test
// it is in; a finished package and a finished test are not named.
func TestProgressNamesRunningPackages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log, out := filepath.Join(dir, "unit.json"), filepath.Join(dir, "progress.txt")
	stderr, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	const mod = "github.com/bootstrap-konnectivity/konnectivity-bundle/"
	lines := []string{
		`{"Action":"start","Package":"` + mod + `deploy/bootkube"}`,
		`{"Action":"start","Package":"` + mod + `internal/proxyversion"}`,
		`{"Action":"start","Package":"` + mod + `internal/done"}`,
		`{"Action":"run","Package":"` + mod + `deploy/bootkube","Test":"TestStage"}`,
		`{"Action":"run","Package":"` + mod + `deploy/bootkube","Test":"TestStage/render"}`,
		`{"Action":"run","Package":"` + mod + `deploy/bootkube","Test":"TestTeardown"}`,
		`{"Action":"pass","Package":"` + mod + `deploy/bootkube","Test":"TestTeardown","Elapsed":1}`,
		`{"Action":"run","Package":"` + mod + `internal/done","Test":"TestQuick"}`,
		`{"Action":"pass","Package":"` + mod + `internal/done","Test":"TestQuick","Elapsed":0}`,
		`{"Action":"pass","Package":"` + mod + `internal/done","Elapsed":0.1}`,
	}
	script := `printf '%s\n' "${@:3}" > "$1"
for i in $(seq 600); do grep -q "still running" "$2" && exit 0; sleep 0.1; done
exit 9`
	cmd := exec.Command(filepath.Join(tooltest.RepoRoot(), "tools", "progress.sh"), "unit", "bash", "-c", script, "bash", log, out)
	cmd.Args = append(cmd.Args, lines...)
	cmd.Dir = tooltest.RepoRoot() // its go.mod names the module path to leave off
	cmd.Env = append(os.Environ(), "KB_PROGRESS_INTERVAL=0.2", "KB_PROGRESS_LOG="+log)
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("progress.sh: %v (exit 9: no still-running line within a minute)", err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := "s (in deploy/bootkube: TestStage/render, internal/proxyversion)\n"; !strings.Contains(string(got), want) {
		t.Errorf("progress lines lack %q:\n%s", want, got)
	}
}

// TestGoTestTextShowsWhatGoTestWould: a real go test -json run of a
// package with a passing and a failing test, through tools/gotest-text.sh,
// shows the failing test's output and the package results, not the
// passing test's log lines.
func TestGoTestTextShowsWhatGoTestWould(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		tooltest.Missing(t, "runs go test -json: "+err.Error())
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.26\n",
		"ok/ok_test.go": "package ok\n\nimport \"testing\"\n\nfunc TestFine(t *testing.T) { t.Log(\"quiet <line> & more\") }\n",
		"bad/x_test.go": "package bad\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) {\n\tt.Log(\"context \\\"quoted\\\" <b>\")\n\tt.Error(\"boom\")\n}\n",
		"none/none.go":  "package none\n",
	}
	for name, body := range files {
		p := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("bash", "-c", `set -o pipefail; "$1" test -json -count=1 ./... | "$2"`, "bash", goBin, filepath.Join(tooltest.RepoRoot(), "tools", "gotest-text.sh"))
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("go test -json | gotest-text.sh: %v, want go test's exit 1 for the failing package:\n%s", err, out)
	}
	for _, want := range []string{`x_test.go:6: context "quoted" <b>`, "x_test.go:7: boom", "--- FAIL: TestBroken", "FAIL\texample.com/m/bad", "ok  \texample.com/m/ok", "?   \texample.com/m/none\t[no test files]"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "quiet") || strings.Contains(string(out), `"Action"`) {
		t.Errorf("output shows a passing test's log or raw JSON:\n%s", out)
	}
}
