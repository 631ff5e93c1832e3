package hosttxn_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"
)

// signalScenario is one command that changes the host, run again and
// again with a real SIGTERM injected at a different point each time
// (issue 19 point 5).
type signalScenario struct {
	name string
	noun string // as the messages name the run: "render"
	base string // copied into each root first; "" is a fresh root
	args func(root string) []string
	// completed checks a root the command finished, against the shape
	// (paths and modes) of an uninterrupted run; it may run the command
	// again.
	completed func(t *testing.T, bin, root string)
}

// signalScenarios are render (fresh and update), certs (fresh and
// refresh) and teardown of a rendered root.
func signalScenarios(t *testing.T, bin string) []signalScenario {
	rendered := t.TempDir()
	runOK(t, bin, "render", "--root", rendered, "--bootstrap-ip", crashIP, "--image", crashImage)
	certified := t.TempDir()
	runOK(t, bin, certsArgs(certified, crashIP)...)
	renderArgs := func(root string) []string {
		return []string{"render", "--root", root, "--bootstrap-ip", crashIP2, "--image", crashImage}
	}
	certs := func(root string) []string { return certsArgs(root, crashIP2) }
	teardown := func(root string) []string { return []string{"teardown", "--root", root, "-q"} }
	return []signalScenario{
		{name: "render-fresh", noun: "render", args: renderArgs, completed: withShape(t, bin, "", renderArgs, assertFinal)},
		{name: "render-update", noun: "render", base: rendered, args: renderArgs, completed: withShape(t, bin, rendered, renderArgs, assertFinal)},
		{name: "certs-fresh", noun: "certs run", args: certs, completed: withShape(t, bin, "", certs, certsFinal)},
		{name: "certs-refresh", noun: "certs run", base: certified, args: certs, completed: withShape(t, bin, certified, certs, certsFinal)},
		{name: "teardown", noun: "teardown", base: rendered, args: teardown, completed: withSame(t, bin, rendered, teardown)},
	}
}

func certsFinal(t *testing.T, root, bin string) { assertCertsFinal(t, bin, root) }

// withShape runs the command once uninterrupted on a copy of base, and
// checks a completed root has its paths and modes (the keys differ from
// run to run) before final checks it.
func withShape(t *testing.T, bin, base string, args func(string) []string, final func(t *testing.T, root, bin string)) func(*testing.T, string, string) {
	ref := rootFrom(t, base)
	runOK(t, bin, args(ref)...)
	want := treetest.Snapshot(t, ref, treetest.Shape)
	return func(t *testing.T, bin, root string) {
		t.Helper()
		treetest.AssertSame(t, "the completed root and an uninterrupted run's", want, treetest.Snapshot(t, root, treetest.Shape))
		final(t, root, bin)
	}
}

// withSame: a completed root is byte for byte an uninterrupted run's
// (teardown's result has no random part).
func withSame(t *testing.T, bin, base string, args func(string) []string) func(*testing.T, string, string) {
	ref := rootFrom(t, base)
	runOK(t, bin, args(ref)...)
	want := treetest.Snapshot(t, ref, treetest.Content)
	return func(t *testing.T, _, root string) {
		t.Helper()
		treetest.AssertSame(t, "the completed root and an uninterrupted run's", want, treetest.Snapshot(t, root, treetest.Content))
	}
}

// TestSignalAtEveryStep sends a real SIGTERM (strace -e inject=...:signal=SIGTERM)
// at the Nth rename, fsync, removal or link of render, certs and teardown,
// for N = 1, 2, ... until a run makes no Nth call. Each run stops at its
// next safe point: exit 8 with the root byte for byte as before (same
// inodes and mtimes) and "was undone" or "before ... changed anything", or
// exit 9 with the root completed and "was completed". Either way no
// journal, no scratch file and a free lock. When strace's per-thread count
// delivers the signal twice, the run must die at once and the next run
// recover it.
func TestSignalAtEveryStep(t *testing.T) {
	strace, bin := killTools(t, "processes")
	for _, sc := range signalScenarios(t, bin) {
		t.Run(sc.name, func(t *testing.T) {
			seen := map[string]int{}
			for _, call := range []string{"renameat,renameat2", "fsync", "unlinkat", "linkat"} {
				for n := 1; ; n++ {
					out := sc.signalled(t, strace, bin, call, fmt.Sprint(n))
					if out.kind == noSignal {
						break
					}
					seen[out.kind]++
				}
			}
			t.Logf("outcomes: %v", seen)
			// teardown changes nothing before its first traced call, so
			// only the lock test sees it stop with the host as before
			if seen[undone] == 0 && sc.noun != "teardown" {
				t.Errorf("no signal before the commit point undid the %s", sc.noun)
			}
			if seen[completed] == 0 {
				t.Errorf("no signal after the commit point let the %s complete", sc.noun)
			}
		})
	}
}

// TestSecondSignalStopsAtOnce injects SIGTERM at every rename and removal
// from the Nth on: once the first is caught, the next one comes while the
// run finishes or undoes, and must stop it at once, by the signal, leaving
// what the next run of the same command recovers.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	strace, bin := killTools(t, "processes")
	for _, sc := range signalScenarios(t, bin) {
		t.Run(sc.name, func(t *testing.T) {
			atOnce := 0
			for n := 1; ; n++ {
				out := sc.signalled(t, strace, bin, "renameat,renameat2,unlinkat", fmt.Sprint(n)+"+")
				if out.kind == noSignal {
					break
				}
				if out.kind == stoppedAtOnce {
					atOnce++
				}
			}
			if atOnce == 0 {
				t.Errorf("no second signal stopped %s at once", sc.noun)
			}
		})
	}
}

// TestSignalWhileWaitingForTheLock: a run waiting for the root's lock
// (held here) stops at a SIGTERM, changes nothing and exits 8.
func TestSignalWhileWaitingForTheLock(t *testing.T) {
	strace := tooltest.System(t, "strace", "strace")
	bin := tooltest.BuildSelf(t, t.TempDir())
	for _, sc := range signalScenarios(t, bin) {
		t.Run(sc.name, func(t *testing.T) {
			var before map[string]treetest.Entry
			fresh := func() string {
				root := rootFrom(t, sc.base)
				holdLock(t, root)
				before = treetest.Snapshot(t, root, treetest.Exact)
				return root
			}
			args := func(root string) []string { return append(sc.args(root), "--lock-timeout", "10m") }
			// the first try fails at once; the second comes 50ms later
			root, out, err := traced(t, strace, bin, "flock", "signal=SIGTERM:when=2+", fresh, args)
			if code := exitCode(err); code != 8 {
				t.Fatalf("exit %d, want 8:\n%s", code, out)
			}
			want := "interrupted by SIGTERM before the " + sc.noun + " changed anything: the host is as before"
			if !strings.Contains(string(out), want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
			treetest.AssertSame(t, "the root before and after", before, treetest.Snapshot(t, root, treetest.Exact))
		})
	}
}

// holdLock takes root's lock for the rest of the test, as another run
// would hold it (flock: a second open file conflicts even in one process).
func holdLock(t *testing.T, root string) {
	t.Helper()
	d, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
}

// outcome kinds of one signalled run.
const (
	noSignal      = "no signal"
	stoppedAtOnce = "stopped at once"
	undone        = "undone"
	completed     = "completed"
)

type signalOutcome struct{ kind string }

// signalled runs the command with SIGTERM injected at call (strace's
// when=), checks what it left and says how it ended.
func (sc signalScenario) signalled(t *testing.T, strace, bin, call, when string) signalOutcome {
	t.Helper()
	var before map[string]treetest.Entry
	fresh := func() string {
		root := rootFrom(t, sc.base)
		before = treetest.Snapshot(t, root, treetest.Exact)
		return root
	}
	root, raw, err := traced(t, strace, bin, call, "signal=SIGTERM:when="+when, fresh, sc.args)
	out := string(raw)
	where := fmt.Sprintf("SIGTERM at %s #%s", call, when)
	code := exitCode(err)
	caught := strings.Contains(out, "SIGTERM: stopping at the next safe point")
	switch {
	case code == 0 && !caught:
		sc.completed(t, bin, root)
		return signalOutcome{noSignal}
	case code == -int(syscall.SIGTERM) && strings.Contains(out, "SIGTERM again: stopping at once"):
		sc.recovered(t, bin, root, where)
		return signalOutcome{stoppedAtOnce}
	case code == 8:
		if !strings.Contains(out, "interrupted by SIGTERM: the "+sc.noun+" was undone, the host is as before") &&
			!strings.Contains(out, "interrupted by SIGTERM before the "+sc.noun+" changed anything: the host is as before") {
			t.Errorf("%s: exit 8 without saying the %s was undone:\n%s", where, sc.noun, out)
		}
		treetest.AssertSame(t, where+": the root before and after", before, treetest.Snapshot(t, root, treetest.Exact))
		assertUnlocked(t, root)
		return signalOutcome{undone}
	case code == 9:
		if !strings.Contains(out, "interrupted by SIGTERM: the "+sc.noun+" was completed") {
			t.Errorf("%s: exit 9 without saying the %s was completed:\n%s", where, sc.noun, out)
		}
		assertUnlocked(t, root)
		assertNoScratch(t, root)
		sc.completed(t, bin, root)
		return signalOutcome{completed}
	}
	t.Fatalf("%s: exit %d, want 8, 9, or death by a second SIGTERM:\n%s", where, code, out)
	return signalOutcome{}
}

// recovered: after a run stopped at once the next run of the same command
// finishes or undoes what it left, says so when it left a journal, and
// completes.
func (sc signalScenario) recovered(t *testing.T, bin, root, where string) {
	t.Helper()
	if exists(filepath.Join(root, hostlayout.JournalPath)) {
		out := runOK(t, bin, sc.args(root)...)
		if !strings.Contains(out, "recovered: an interrupted ") {
			t.Errorf("%s, then again: the next %s did not say it recovered:\n%s", where, sc.noun, out)
		}
	} else {
		runOK(t, bin, sc.args(root)...)
	}
	assertNoScratch(t, root)
	sc.completed(t, bin, root)
}

// exitCode is the process's exit code, or minus the signal that killed it.
func exitCode(err error) int {
	var exit *exec.ExitError
	if err == nil {
		return 0
	}
	if !errors.As(err, &exit) {
		return -1000
	}
	if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -int(ws.Signal())
	}
	return exit.ExitCode()
}

// assertUnlocked: nothing holds the root's lock once the run is over.
func assertUnlocked(t *testing.T, root string) {
	t.Helper()
	d, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Errorf("the root's lock is still held after the run: %v", err)
	}
}
