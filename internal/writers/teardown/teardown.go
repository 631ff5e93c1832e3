// Package teardown removes what render put on the bootstrap host, and with
// a kubeconfig the cluster objects the bundle created, without waiting for
// namespace finalization, which hung installs whose finalizers needed a webhook
// that was not up yet (docs/render.md, teardown).
package teardown

import (
	"context"
	"fmt"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Options is one teardown.
type Options struct {
	Root string
	// Cluster, when set, also deletes the recorded cluster objects; nil
	// removes the files only and keeps the objects recorded.
	Cluster *Cluster
	// NoCluster, when set, is why Cluster is nil, said before the warning.
	// The CLI leaves it out: its kubeconfig line says the lookup's whole
	// answer, once, so the warning only says what it means.
	NoCluster string
	// Strict makes an unreachable API server an error instead of a warning.
	Strict bool
	// LockTimeout is how long to wait for a render or teardown holding the
	// root's lock; 0 fails at once.
	LockTimeout time.Duration
	// LockFlag names the flag that set LockTimeout in a LockedError;
	// "" is --lock-timeout.
	LockFlag string
}

// Report says what teardown did.
type Report struct {
	// Recovered says how an interrupted render was finished or undone first.
	Recovered   string
	Removed     []string // files and directories removed, in order
	AlreadyGone []string // recorded files that did not exist
	Deleted     []string // cluster objects whose deletion was issued
	NotFound    []string // cluster objects that were already gone
	Refused     []string // cluster objects without this root's owner marker, left in place
	Warnings    []string
	// Unreachable is set when the API server could not be reached; the
	// cluster objects stay recorded so a later teardown can delete them.
	Unreachable    bool
	UnreachableErr error
	// Pending lists cluster objects still recorded in the state file.
	Pending []hostlayout.ObjectRef
	// Stopped is the signal that stopped teardown after it removed the
	// files, before it deleted every cluster object (then in Pending).
	Stopped error
}

// UnreachableError is returned with Strict when the API server is unreachable.
type UnreachableError struct{ Err error }

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("--strict: API server unreachable; the cluster objects stay recorded, rerun teardown when it is reachable: %v", textsafe.Err(e.Err))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Run tears down. It is idempotent: what is already gone counts as removed.
func Run(ctx context.Context, opts Options) (*Report, error) {
	cluster := opts.Cluster
	s, err := hosttxn.Begin(ctx, opts.Root, hosttxn.SessionOptions{Command: "teardown", LockTimeout: opts.LockTimeout, LockFlag: opts.LockFlag})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	h := s.Root
	rep := &Report{Recovered: s.Recovered}
	if err := hosttxn.Stopped(ctx); err != nil {
		return rep, err
	}
	recorded, err := h.Exists(hostlayout.StatePath)
	if err != nil {
		return nil, err
	}
	if !recorded {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("no state file %s: render recorded nothing under this root, so nothing was removed", h.Abs(hostlayout.StatePath)))
		return rep, nil
	}
	st, err := statefile.Read(h)
	if err != nil {
		return nil, err
	}
	// The last point where a signal leaves the host as it was. Past it the
	// files go and the state follows without another check: a few
	// unlinks, and a half-removed bundle is nobody's safe point.
	if err := hosttxn.Stopped(ctx); err != nil {
		return rep, err
	}
	if err := removeFiles(h, st, rep); err != nil {
		return rep, err
	}
	swept, err := s.Sweep(hosttxn.CertDirs(st)...)
	rep.Removed = append(rep.Removed, swept...)
	if err != nil {
		return rep, err
	}
	pending := st.ClusterObjects
	// deleteAll stops before the first object it has not begun when a
	// signal came.
	if cluster != nil && len(pending) > 0 {
		if pending, err = cluster.deleteAll(ctx, st, rep); err != nil {
			rep.Pending = st.ClusterObjects // the state is left as it was: all stay recorded
			return rep, err
		}
	} else if len(pending) > 0 {
		w := fmt.Sprintf("%d cluster object(s) in namespace %s not deleted, the cluster not read; they stay recorded (teardown --kubeconfig FILE deletes them)", len(pending), st.Namespace)
		if opts.NoCluster != "" {
			w = opts.NoCluster + ": " + w
		}
		rep.Warnings = append(rep.Warnings, w)
	}
	rep.Pending = pending
	if err := finishState(h, st, pending, rep); err != nil {
		return rep, err
	}
	if rep.Unreachable && opts.Strict {
		rep.Warnings = rep.Warnings[:len(rep.Warnings)-1] // the error says it
		return rep, &UnreachableError{Err: rep.UnreachableErr}
	}
	return rep, nil
}

// stop records the signal that left n cluster objects undeleted.
func (rep *Report) stop(err error, n int) {
	rep.Stopped = err
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("%v before deleting %d cluster object(s); they stay recorded, run teardown --kubeconfig again", err, n))
}
