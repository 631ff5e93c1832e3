package cli

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/spf13/pflag"
)

// deadlineGrace is how long past its --timeout a command may take to end
// on its own, printing what it learned, before the run is abandoned: long
// enough for a report the cancelled reads make to be written, short enough
// that the bound the help states holds.
const deadlineGrace = time.Second

// timedOutError is the cause of a command context whose --timeout passed.
type timedOutError struct{ d time.Duration }

func (e *timedOutError) Error() string {
	return fmt.Sprintf("timed out: --timeout %s passed", e.d)
}

// deadline is the whole-command --timeout of a command that takes one,
// armed in one place (runCommand) for every such command, so no library
// call that ignores its context can keep a command past its bound: the
// command's context ends at the deadline, and a command still running
// deadlineGrace later is abandoned with the command's own "timed out"
// line and exit code. A host change under way (a held root) is never
// abandoned: it ends at its own safe point, as a signal would leave it.
type deadline struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	holds    int
	released chan struct{} // closed and replaced when holds drops to 0

	// abandoned is written holding mu and wmu, read holding either: wmu
	// orders the command's writes before the abandonment, so the "timed
	// out" line never lands inside one of them.
	wmu       sync.Mutex
	abandoned bool
}

// armDeadline is the deadline of the command whose flags fs holds, its
// --timeout plus the overrun its help states, or nil when it takes no
// --timeout or was given no positive one (the command refuses that itself).
func armDeadline(fs *pflag.FlagSet, overrun func(*pflag.FlagSet) time.Duration) *deadline {
	if fs.Lookup("timeout") == nil {
		return nil
	}
	d, err := fs.GetDuration("timeout")
	if err != nil || d <= 0 {
		return nil
	}
	end := d
	if overrun != nil {
		end += overrun(fs)
	}
	ctx, cancel := context.WithDeadlineCause(context.Background(), time.Now().Add(end), &timedOutError{d: d})
	return &deadline{ctx: ctx, cancel: cancel, released: make(chan struct{})}
}

// hold marks a host change under way, which the deadline never abandons;
// release ends it. It fails once the run was abandoned: the change must
// not begin then.
func (dl *deadline) hold() (release func(), err error) {
	if dl == nil {
		return func() {}, nil
	}
	dl.mu.Lock()
	defer dl.mu.Unlock()
	if dl.abandoned {
		return nil, context.Cause(dl.ctx)
	}
	dl.holds++
	return func() {
		dl.mu.Lock()
		defer dl.mu.Unlock()
		if dl.holds--; dl.holds == 0 {
			close(dl.released)
			dl.released = make(chan struct{})
		}
	}, nil
}

// run runs fn, and gives up on it deadlineGrace after the deadline while
// nothing holds the host: abandoned reports true then, and the outputs fn
// writes to after that are dropped (out wraps them). A nil deadline runs
// fn as it is.
func (dl *deadline) run(fn func() error) (err error, abandoned bool) {
	if dl == nil {
		return fn(), false
	}
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err, false
	case <-dl.ctx.Done():
	}
	grace := time.NewTimer(deadlineGrace)
	defer grace.Stop()
	for {
		select {
		case err := <-done:
			return err, false
		case <-grace.C:
		}
		dl.mu.Lock()
		if dl.holds == 0 {
			dl.wmu.Lock()
			dl.abandoned = true
			dl.wmu.Unlock()
			dl.mu.Unlock()
			return nil, true
		}
		released := dl.released
		dl.mu.Unlock()
		select {
		case err := <-done:
			return err, false
		case <-released:
			grace.Reset(deadlineGrace) // the command now has its report left to print
		}
	}
}

// out is w as the command writes to it: a write after the run was
// abandoned is dropped, so nothing an abandoned command still prints
// follows the "timed out" line.
func (dl *deadline) out(w io.Writer) io.Writer {
	if dl == nil {
		return w
	}
	return &deadlineWriter{dl: dl, w: w}
}

type deadlineWriter struct {
	dl *deadline
	w  io.Writer
}

func (g *deadlineWriter) Write(p []byte) (int, error) {
	g.dl.wmu.Lock()
	defer g.dl.wmu.Unlock()
	if g.dl.abandoned {
		return len(p), nil
	}
	return g.w.Write(p)
}
