package cli

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// blockingCommand is a command with a --timeout whose run ignores its
// context, as a library call that never looks at it would: it writes a
// line, then blocks until unblock is closed, then writes another.
func blockingCommand(unblock <-chan struct{}, hold bool) *command {
	return &command{
		Name: "block", Short: "blocks",
		Options: func(fs *pflag.FlagSet) options {
			fs.Duration("timeout", time.Second, "give up after this long")
			return runOnly(func(io IO) error {
				io.Stdout.Write([]byte("before\n"))
				if hold {
					release, err := io.holdHost()
					if err != nil {
						return err
					}
					defer release()
				}
				<-unblock
				io.Stdout.Write([]byte("after\n"))
				return nil
			})
		},
	}
}

// runOnly is a test command's Options: nothing to complete or validate.
type runOnly func(IO) error

func (runOnly) Complete(IO, []string) error { return nil }
func (runOnly) Validate() error             { return nil }
func (r runOnly) Run(io IO) error           { return r(io) }

// syncBuffer is a bytes.Buffer an abandoned command may still write to
// while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestDeadlineAbandonsACommandThatIgnoresItsContext: runCommand, the one
// path every command takes, ends a command whose run never returns once
// its --timeout and the grace have passed, with the timed-out line and
// exit code, and drops what the command writes after that.
func TestDeadlineAbandonsACommandThatIgnoresItsContext(t *testing.T) {
	unblock := make(chan struct{})
	defer close(unblock)
	c := &CLI{commands: []*command{blockingCommand(unblock, false)}}
	var stdout, stderr syncBuffer
	start := time.Now()
	code := c.Main([]string{ProgramName, "block", "--timeout", "200ms"}, IO{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }})
	took := time.Since(start)
	if code != exitTimedOut {
		t.Errorf("exit %d, want %d (timed out)", code, exitTimedOut)
	}
	if took < 200*time.Millisecond+deadlineGrace {
		t.Errorf("returned after %s, before --timeout and the grace had passed", took)
	}
	want := ProgramName + " block: timed out: --timeout 200ms passed before it finished; nothing more was read or changed\n"
	if stderr.String() != want {
		t.Errorf("stderr:\n%q\nwant:\n%q", stderr.String(), want)
	}
	unblock <- struct{}{} // the abandoned run goes on and writes
	time.Sleep(50 * time.Millisecond)
	if got := stdout.String(); got != "before\n" {
		t.Errorf("stdout %q: a write after the abandonment was not dropped", got)
	}
}

// TestDeadlineWaitsForAHeldHost: a host change under way is never
// abandoned; the command ends when the change ends, with its own answer.
func TestDeadlineWaitsForAHeldHost(t *testing.T) {
	unblock := make(chan struct{})
	c := &CLI{commands: []*command{blockingCommand(unblock, true)}}
	var stdout, stderr syncBuffer
	go func() {
		time.Sleep(200*time.Millisecond + 3*deadlineGrace)
		close(unblock)
	}()
	code := c.Main([]string{ProgramName, "block", "--timeout", "200ms"}, IO{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }})
	if code != 0 || stdout.String() != "before\nafter\n" || stderr.String() != "" {
		t.Errorf("exit %d, stdout %q, stderr %q: want 0, both lines, nothing on stderr", code, stdout.String(), stderr.String())
	}
}

// TestDeadlineHoldAfterAbandon: once a run was abandoned, a host change
// it still tries to begin is refused with the deadline's cause.
func TestDeadlineHoldAfterAbandon(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Duration("timeout", 10*time.Millisecond, "")
	dl := armDeadline(fs, nil)
	defer dl.cancel()
	never := make(chan struct{})
	defer close(never)
	if _, abandoned := dl.run(func() error { <-never; return nil }); !abandoned {
		t.Fatal("a run that never returns was not abandoned")
	}
	var timedOut *timedOutError
	if _, err := dl.hold(); !errors.As(err, &timedOut) {
		t.Errorf("hold after abandon: %v, want the timed-out cause", err)
	}
}

// TestDeadlineOverrun: the overrun a command states moves its context's
// deadline past --timeout; a command's context carries the timed-out cause.
func TestDeadlineOverrun(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Duration("timeout", time.Minute, "")
	dl := armDeadline(fs, func(*pflag.FlagSet) time.Duration { return time.Hour })
	defer dl.cancel()
	end, ok := dl.ctx.Deadline()
	if !ok || time.Until(end) < time.Hour {
		t.Errorf("deadline %v (set %v), want --timeout plus the overrun", end, ok)
	}
	fs = pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Duration("timeout", time.Millisecond, "")
	dl = armDeadline(fs, nil)
	<-dl.ctx.Done()
	if !strings.Contains(context.Cause(dl.ctx).Error(), "timed out: --timeout 1ms passed") {
		t.Errorf("cause %v", context.Cause(dl.ctx))
	}
}

// TestEveryTimeoutIsADeadline: every command the CLI lists that takes
// --timeout takes it as a duration, so runCommand arms its deadline; a
// --timeout of another type would leave the command unbounded.
func TestEveryTimeoutIsADeadline(t *testing.T) {
	n := 0
	for _, cmd := range New(Config{}).commands {
		fs := newFlagSet(cmd)
		cmd.Options(fs)
		if fs.Lookup("timeout") == nil {
			continue
		}
		n++
		if armDeadline(fs, cmd.Overrun) == nil {
			t.Errorf("%s takes --timeout, but no deadline is armed from its default %q: declare it with fs.DurationVar and a positive default", cmd.Name, fs.Lookup("timeout").DefValue)
		}
	}
	if n == 0 {
		t.Fatal("no command takes --timeout: the test looked at nothing")
	}
}
