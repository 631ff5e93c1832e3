package proctest

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStop: a process that exits on SIGTERM stops on the first, one that
// ignores it is killed after the grace periods; either way it has exited,
// its whole group with it, and the log holds the command line and output.
// The one that ignores SIGTERM is killed whatever the grace periods, so
// they are short there: the test waits for them to pass.
func TestStop(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		graces       []time.Duration // nil: Stop's own
		wantErr      string
	}{
		{name: "exits on SIGTERM", script: "echo up-$((1+1)); exec sleep 60", wantErr: "signal: terminated"},
		{name: "ignores SIGTERM", script: "trap '' TERM; sleep 60 & echo up-$((1+1)); while :; do sleep 0.1; done",
			graces: []time.Duration{50 * time.Millisecond, 50 * time.Millisecond}, wantErr: "signal: killed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Launch(t, Spec{Name: "sh", LogDir: t.TempDir(), Argv: []string{"sh", "-c", tc.script}, Env: []string{"PROCTEST=1"}})
			if tc.graces != nil {
				p.graces = tc.graces
			}
			waitLog(t, p, "up-2") // not in the logged command line
			p.Stop()
			if p.Running() {
				t.Fatal("still running after Stop")
			}
			if err := p.Err(); err == nil || err.Error() != tc.wantErr {
				t.Errorf("Err() = %v, want %s", err, tc.wantErr)
			}
			// The group's other members die by the same signal; a zombie
			// counts until its new parent reaps it, so allow a moment.
			for deadline := time.Now().Add(10 * time.Second); syscall.Kill(-p.Pid(), 0) != syscall.ESRCH; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("process group %d still has members", p.Pid())
				}
			}
			if !strings.Contains(p.Log(), "sh -c "+tc.script) {
				t.Errorf("log lacks the command line:\n%s", p.Log())
			}
		})
	}
}

// TestSignalWait: SIGSTOP freezes the process and SIGCONT thaws it, Wait
// reports a process still running and then its exit, Env reaches it, and a
// signal to an exited process is an error naming it.
func TestSignalWait(t *testing.T) {
	p := Start(t, Spec{Name: "counter", LogDir: t.TempDir(), Env: []string{"PROCTEST_WORD=tick"},
		Argv: []string{"sh", "-c", "for i in $(seq 10); do echo $PROCTEST_WORD; sleep 0.1; done"}})
	waitLog(t, p, "tick")
	if err := p.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Wait(200 * time.Millisecond); !ok { // two ticks' time
		frozen := strings.Count(p.Log(), "tick")
		time.Sleep(300 * time.Millisecond)
		if n := strings.Count(p.Log(), "tick"); n != frozen {
			t.Errorf("stopped process went on logging: %d ticks, then %d", frozen, n)
		}
	} else {
		t.Fatal("the process exited while stopped")
	}
	if err := p.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if err, ok := p.Wait(30 * time.Second); !ok || err != nil {
		t.Fatalf("Wait = %v, %v; want a clean exit", err, ok)
	}
	if n := strings.Count(p.Log(), "tick"); n != 10 {
		t.Errorf("%d ticks after thawing, want 10", n)
	}
	if got := p.Tail(2); got != "tick\ntick" {
		t.Errorf("Tail(2) = %q", got)
	}
	if err := p.Signal(syscall.SIGTERM); err == nil || !strings.Contains(err.Error(), "counter") {
		t.Errorf("signal to an exited process: %v, want an error naming it", err)
	}
}

func waitLog(t *testing.T, p *Proc, want string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(p.Log(), want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) || !p.Running() {
			t.Fatalf("%s never logged %q:\n%s", p.Name(), want, p.Log())
		}
	}
}
