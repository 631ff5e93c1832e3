package hosttxn

import (
	"context"
	"errors"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// SessionOptions says how Begin holds a root.
type SessionOptions struct {
	// Command is the command named when the root is not writable ("render").
	Command string
	// Writable requires a root the running user may write. Only render asks
	// up front: it names the fix (run it as root) before it plans anything.
	Writable bool
	// Shared takes the lock shared and changes nothing: a pending journal is
	// only told in Recovered (render --dry-run, whose readers never block
	// each other nor see a transaction halfway).
	Shared bool
	// OnlyIfPending takes the lock only when Recover has something to do,
	// so a reader of a quiet root (status) never waits for a running render.
	// With nothing pending Begin returns a Session that holds no lock.
	OnlyIfPending bool
	// LockTimeout is how long to wait for another holder; 0 fails at once.
	LockTimeout time.Duration
	// LockFlag is the flag that sets LockTimeout, named by a LockedError;
	// "" is --lock-timeout.
	LockFlag string
	// Guard, when set, runs under the lock before recovery; its error ends
	// Begin with nothing changed (certs refuses a --dir reached through a
	// link before it touches the host).
	Guard func(h *hostfs.Root) error
}

// Session is one command's hold on a root: opened, locked, and with any
// transaction an interrupted run left finished or undone.
type Session struct {
	// Root is the opened root; every file operation of the command goes
	// through it.
	Root *hostfs.Root
	// Recovered says how recovery finished or undid an interrupted run, or,
	// in a shared session, that one is pending; "" when there was none.
	Recovered string
	// Swept lists the temporary files of an older certs that Sweep removed,
	// as absolute paths.
	Swept []string
	lock  *hostfs.Lock
}

// pendingNotice is what a shared session reports for a journal it may not
// recover.
const pendingNotice = "an interrupted transaction is pending; the next render, teardown or status finishes or undoes it first"

// Begin checks root (checkRoot), opens it, takes its lock and recovers an
// interrupted run. A cancelled ctx stops the wait for the lock with
// context.Cause(ctx). On error nothing is held; otherwise the caller must
// Close the session.
func Begin(ctx context.Context, root string, opts SessionOptions) (*Session, error) {
	abs, err := checkRoot(root, opts.Writable, opts.Command)
	if err != nil {
		return nil, err
	}
	h, err := hostfs.Open(abs)
	if err != nil {
		return nil, &RootError{Err: err}
	}
	s := &Session{Root: h}
	if err := s.hold(ctx, opts); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// hold takes the lock, runs the guard and recovers, as opts say.
func (s *Session) hold(ctx context.Context, opts SessionOptions) error {
	if opts.OnlyIfPending && !anyPending(s.Root) {
		return nil
	}
	lock := s.Root.Lock
	if opts.Shared {
		lock = s.Root.LockShared
	}
	held, err := lock(ctx, opts.LockTimeout)
	var locked *hostfs.LockedError
	if errors.As(err, &locked) {
		locked.Flag = opts.LockFlag
	}
	if err != nil {
		return err
	}
	s.lock = held
	if opts.Guard != nil {
		if err := opts.Guard(s.Root); err != nil {
			return err
		}
	}
	if opts.Shared {
		if exists(s.Root, hostlayout.JournalPath) {
			s.Recovered = pendingNotice
		}
		return nil
	}
	s.Recovered, err = recoverJournal(s.Root)
	return err
}

// Sweep removes the temporary files an older certs left in the certificate
// directories dirs (root-relative; sweepLegacyCertTemps) and adds them to
// Swept. It returns what this call removed, also on error.
func (s *Session) Sweep(dirs ...string) ([]string, error) {
	swept, err := sweepLegacyCertTemps(s.Root, dirs...)
	s.Swept = append(s.Swept, swept...)
	return swept, err
}

// Close releases the lock and the root.
func (s *Session) Close() {
	if s.lock != nil {
		s.lock.Unlock()
		s.lock = nil
	}
	s.Root.Close()
}
