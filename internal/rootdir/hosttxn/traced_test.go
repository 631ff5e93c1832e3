package hosttxn_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// tracerLost matches the line strace prints, under its own name, when the
// kernel refuses to resume a thread of the process it traces, after which
// strace gives up and exits 1. It happens when that thread is being torn
// down at the same instant: a CI run saw "strace: ptrace(PTRACE_LISTEN,
// pid:10409,sig:0): Input/output error" while a second SIGTERM ended a
// certs run. The command under test printed nothing of the kind.
var tracerLost = regexp.MustCompile(`(?m)^\S*strace: ptrace\(`)

// tracerTries bounds the runs of one injection point: a command that loses
// its tracer every time is a finding, not luck.
const tracerTries = 3

// killTools returns strace and this module's binary, built afresh, for a
// test that kills or signals hundreds of real processes (what names them),
// which -short skips.
func killTools(t *testing.T, what string) (strace, bin string) {
	t.Helper()
	tooltest.Integration(t, "hundreds of real "+what+" under strace")
	strace = tooltest.System(t, "strace", "strace")
	return strace, tooltest.BuildSelf(t, t.TempDir())
}

// traced runs bin with args(root) under strace, which injects at the calls
// in call (strace's -e trace= list) the fault inject names ("signal=SIGKILL:when=3").
// fresh makes the root each try starts from. When strace itself failed
// (tracerLost), that run proves nothing about the command, so traced logs
// it and runs again on a fresh root; it returns the first run strace saw
// to its end.
func traced(t *testing.T, strace, bin, call, inject string, fresh func() string, args func(root string) []string) (root string, out []byte, err error) {
	t.Helper()
	for try := 1; ; try++ {
		root = fresh()
		cmd := exec.Command(strace, append([]string{"-f", "-qq", "-o", "/dev/null", "-e", "trace=" + call,
			"-e", "inject=" + call + ":" + inject, bin}, args(root)...)...)
		out, err = cmd.CombinedOutput()
		if err == nil || !tracerLost.Match(out) {
			return root, out, err
		}
		if try == tracerTries {
			t.Fatalf("strace lost the process at %s (%s) in all %d runs; the last printed:\n%s", call, inject, try, out)
		}
		t.Logf("strace lost the process at %s (%s), so the run proves nothing about the command; running it again on a fresh root:\n%s", call, inject, out)
	}
}

// TestTracedRunsAgainWhenStraceLosesTheProcess stands a script in for
// strace that fails as strace does on its first run and then runs the
// command: traced must log the lost run, start again on a fresh root and
// return the second run.
func TestTracedRunsAgainWhenStraceLosesTheProcess(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "strace")
	script := `#!/bin/sh
# the injection options and the command: -f -qq -o /dev/null -e T -e I BIN ARGS...
shift 8
if [ ! -e "` + dir + `/lost-once" ]; then
	: > "` + dir + `/lost-once"
	echo "$0: ptrace(PTRACE_LISTEN,pid:1,sig:0): Input/output error" >&2
	exit 1
fi
exec "$@"
`
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var roots []string
	fresh := func() string { roots = append(roots, t.TempDir()); return roots[len(roots)-1] }
	root, out, err := traced(t, fake, "/bin/echo", "fsync", "signal=SIGKILL:when=1", fresh,
		func(root string) []string { return []string{"ran in", root} })
	if err != nil {
		t.Fatalf("the second run failed: %v\n%s", err, out)
	}
	if len(roots) != 2 || root != roots[1] {
		t.Fatalf("traced ran on roots %v and returned %q, want two fresh roots and the second", roots, root)
	}
	if got, want := string(out), "ran in "+roots[1]+"\n"; got != want {
		t.Errorf("traced returned %q, want the second run's %q", got, want)
	}
}
