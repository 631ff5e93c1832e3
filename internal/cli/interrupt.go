package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
)

// signalError is the cause of a context the first SIGTERM or SIGINT
// cancelled: render, teardown, certs and hosttxn stop at their next safe
// point and return it.
type signalError struct{ sig syscall.Signal }

func (e *signalError) Error() string { return "interrupted by " + signalName(e.sig) }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	}
	return s.String()
}

// signals turns the first SIGTERM or SIGINT into a cancelled context
// with a *signalError as its cause, so the command stops at its next safe
// point instead of dying between two steps. A second signal stops the
// process at once, by that signal, as a kill would: the journal stays and
// the next render, teardown, certs or status finishes or undoes what this
// run left.
type signals struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	ch     chan os.Signal
	done   chan struct{}
	exited chan struct{}
	stderr io.Writer
	prefix string // "konnectivity-bundle render"
	once   sync.Once
}

// catchSignals starts catching; the command passes ctx down and calls
// settle once it returns. ctx is also done, with its cause, when the
// parent is: a command's --timeout (deadline.go) stops it at the same
// safe points as a signal.
func catchSignals(parent context.Context, stderr io.Writer, command string) *signals {
	ctx, cancel := context.WithCancelCause(parent)
	s := &signals{ctx: ctx, cancel: cancel, ch: make(chan os.Signal, 2), done: make(chan struct{}),
		exited: make(chan struct{}), stderr: stderr, prefix: ProgramName + " " + command}
	signal.Notify(s.ch, syscall.SIGTERM, syscall.SIGINT)
	go s.watch()
	return s
}

func (s *signals) watch() {
	defer close(s.exited)
	select {
	case first := <-s.ch:
		s.first(first)
	case <-s.done:
		return
	}
	select {
	case again := <-s.ch:
		sig := again.(syscall.Signal)
		fmt.Fprintf(s.stderr, "%s: %s again: stopping at once; the next render, teardown, certs or status finishes or undoes what this run left\n", s.prefix, signalName(sig))
		dieBy(sig)
	case <-s.done:
	}
}

func (s *signals) first(got os.Signal) {
	sig := got.(syscall.Signal)
	s.cancel(&signalError{sig: sig})
	fmt.Fprintf(s.stderr, "%s: %s: stopping at the next safe point (a second signal stops at once)\n", s.prefix, signalName(sig))
}

// settle stops catching once the command returned: a signal already
// delivered counts, a later one has its default action (the command only
// has its report left to print). Only the first call does anything, so
// a command may settle on every path.
func (s *signals) settle() { s.once.Do(s.stop) }

func (s *signals) stop() {
	signal.Stop(s.ch)
	close(s.done)
	<-s.exited
	select {
	case got := <-s.ch:
		if s.ctx.Err() == nil {
			s.first(got)
		}
	default:
	}
}

// dieBy ends the process by sig with its default action, so the parent
// sees the status a kill gives. The kernel does not let a process end init
// of its PID namespace (in a container, this binary) that way, nor a
// signal ignored since the process started: then it exits 128 + sig, the
// status a shell would show.
func dieBy(sig syscall.Signal) {
	if os.Getpid() != 1 {
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Second)
	}
	os.Exit(128 + int(sig))
}

// interrupted says a signal stopped ctx (not a deadline, nor nothing).
func interrupted(ctx context.Context) bool {
	var sig *signalError
	return errors.As(context.Cause(ctx), &sig)
}

// interruption is the exit of a command a signal stopped cleanly, or nil
// when no signal came or the command failed for another reason (its own
// error then says what is left). noun names the run ("the render");
// completed says what finishing meant, "" for "<noun> was completed";
// cleaned is set when this run first recovered an earlier one or removed
// what an older one left: the host is then not "as before" it started.
func interruption(ctx context.Context, noun, completed string, cleaned bool, err error) *exitError {
	var sig *signalError
	if !errors.As(context.Cause(ctx), &sig) {
		return nil
	}
	before := "the host is as before"
	if cleaned {
		before = "the host is as it was after the clean-up reported above"
	}
	var undone *hosttxn.UndoneError
	switch {
	case err == nil && completed == "":
		return &exitError{Code: exitInterruptedCompleted, Err: fmt.Errorf("%v: %s was completed", sig, noun)}
	case err == nil:
		return &exitError{Code: exitInterruptedCompleted, Err: fmt.Errorf("%v: %s", sig, completed)}
	case !errors.Is(err, sig):
		return nil
	case errors.As(err, &undone) && undone.Began:
		return &exitError{Code: exitInterruptedUndone, Err: fmt.Errorf("%v: %s was undone, %s", sig, noun, before)}
	}
	return &exitError{Code: exitInterruptedUndone, Err: fmt.Errorf("%v before %s changed anything: %s", sig, noun, before)}
}

// hostGuard guards a host change as the CLI does: --timeout never abandons
// it (holdHost), and signals are caught from the guard's start (sigs), so
// one that comes while the command reads before the change (a kubeconfig's
// exec plugin) is caught too.
type hostGuard struct {
	io   IO
	sigs *signals
}

// newHostGuard starts catching signals for command ("teardown"); the
// caller settles them on the paths that never reach run.
func newHostGuard(io IO, command string) *hostGuard {
	return &hostGuard{io: io, sigs: catchSignals(context.Background(), io.Stderr, command)}
}

// run holds the host around change, which stops at its next safe point
// when a signal came or comes; it fails, running nothing, once the run was
// abandoned.
func (g *hostGuard) run(change func(stop context.Context)) error {
	release, err := g.io.holdHost()
	if err != nil {
		return err
	}
	defer release()
	change(g.sigs.ctx)
	g.sigs.settle()
	return nil
}

// reads is parent ended also by a signal the guard caught: what the
// command reads before the change (a kubeconfig's exec plugin, whose
// process group dies with it) stops at once on Ctrl-C.
func (g *hostGuard) reads(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	stop := context.AfterFunc(g.sigs.ctx, func() { cancel(context.Cause(g.sigs.ctx)) })
	return ctx, func() { stop(); cancel(nil) }
}

// killPluginOnSignal is parent for a command that does not catch signals
// (status, probe) while it reads the kubeconfig: a SIGTERM or SIGINT then
// ends the read, whose exec plugin's process group dies with it (a group
// of its own, which the signal's default action never reached), and
// done, called once the read returned, ends the command by that signal.
func killPluginOnSignal(parent context.Context) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT)
	var got os.Signal
	stop, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		select {
		case got = <-ch:
			cancel()
		case <-stop:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(stop)
		<-exited
		cancel()
		if got != nil {
			dieBy(got.(syscall.Signal))
		}
	}
}
