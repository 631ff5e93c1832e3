package teardown

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
)

// CommandOptions are one teardown as its command runs it: the kubeconfig
// opened and what used the tunnel read first, then Options' removal.
type CommandOptions struct {
	Options
	// Kubeconfig is the kubeconfig found (kuberead.Find); one not found
	// removes the files only.
	Kubeconfig kuberead.Choice
	// Timeout is the whole run's bound (--timeout), which ctx's deadline
	// holds; TimeoutFlag names it where it cuts the lock wait.
	Timeout     time.Duration
	TimeoutFlag string
	// Usage, when set, reads what used the tunnel through cluster (nil:
	// not read) within ctx and timeout; nil reads nothing.
	Usage func(ctx context.Context, cluster *kuberead.Reader, timeout time.Duration) (UsageReport, error)
	// Guard runs remove as the caller guards a host change, with the
	// context a signal ends (never the deadline: the files go whatever
	// it says); its error is a removal that must not begin.
	Guard func(remove func(stop context.Context)) error
}

// UsageReport is the table of what used the tunnel. It is the
// diagnostics' (usage.Report), which a writer does not import: any report
// that writes itself after others' lines.
type UsageReport interface{ WriteAfter(io.Writer) error }

// Done is a teardown as its command ran it: what it prints and how it went.
type Done struct {
	Printed
	// Err is teardown's own error (Run's).
	Err error
	// UsageErr is the usage report's failure: reading or writing it, and
	// the caller's printing it.
	UsageErr error
	// Interrupted: a signal ended the removal's context (Guard).
	Interrupted bool
}

// RunCommand runs the teardown command's work within ctx, the command's
// deadline. Its error is a kubeconfig it cannot use or a removal Guard
// refused: nothing was removed then. Everything else is in Done.
func RunCommand(ctx context.Context, o CommandOptions) (Done, error) {
	cluster, err := o.openCluster(ctx)
	if err != nil {
		return Done{}, err
	}
	var d Done
	if o.Usage != nil {
		// A report that cannot be read or written never keeps the
		// tunnel up: it is named, and the removal goes on.
		// Half of --timeout at most, so the deletes always get the rest.
		uctx, cancel := context.WithTimeout(ctx, o.Timeout/2)
		d.Usage, d.UsageErr = o.Usage(uctx, cluster, o.Timeout/2)
		cancel()
	}
	o.clampLockWait(ctx)
	var stopped context.Context
	if err := o.Guard(func(stop context.Context) {
		stopped = stop
		d.Report, d.Err = Run(stop, o.Options)
	}); err != nil {
		return Done{}, err
	}
	d.Interrupted = stopped.Err() != nil // once Guard returns: a signal delivered by then counts
	d.Kube = kuberead.Summary(o.Kubeconfig, cluster)
	return d, nil
}

// openCluster opens the kubeconfig, and sets the cluster teardown deletes
// through. An unusable kubeconfig fails before
// anything is read, written or removed; the usage report reads through the
// same reader. Half of --timeout at most for the kubeconfig (an exec
// plugin that stalls), so an unusable one is said before the deadline, and
// nothing is removed then, as for any unusable kubeconfig.
func (o *CommandOptions) openCluster(ctx context.Context) (*kuberead.Reader, error) {
	if !o.Kubeconfig.Found() {
		return nil, nil
	}
	octx, cancel := context.WithTimeout(ctx, o.Timeout/2)
	defer cancel()
	cluster, err := kuberead.Open(octx, o.Kubeconfig, kuberead.Within(o.Timeout))
	if err != nil {
		return nil, err
	}
	o.Cluster = ClusterOver(cluster)
	o.Cluster.Deadline = ctx
	return cluster, nil
}

// clampLockWait: the files go whatever the deadline (a teardown that timed
// out on the cluster still removes the bundle from the host; the deadline
// stops the deletes, Cluster.Deadline). The lock wait is the one wait that
// is not the host's: --timeout bounds it too.
func (o *CommandOptions) clampLockWait(ctx context.Context) {
	if end, ok := ctx.Deadline(); ok && time.Until(end) < o.LockTimeout {
		o.LockTimeout, o.LockFlag = max(time.Until(end), 0), o.TimeoutFlag
	}
}

// Failure is the error the command ends with unless a signal decides:
// teardown's own, else the usage report's (a *UsageError), else nil.
func (d Done) Failure() error {
	if d.Err != nil || d.UsageErr == nil {
		return d.Err
	}
	return &UsageError{Err: d.UsageErr}
}

// Warning is the usage report's failure when something else decides the
// exit (a signal, teardown's own error), so it is named either way; nil
// when it decides or did not fail.
func (d Done) Warning() error {
	if d.UsageErr != nil && (d.Err != nil || d.Interrupted) {
		return usageFailure(d.UsageErr)
	}
	return nil
}

// UsageError is a teardown that is done but whose usage report failed.
type UsageError struct{ Err error }

func (e *UsageError) Error() string {
	return "the teardown is done, but " + usageFailure(e.Err).Error()
}

func (e *UsageError) Unwrap() error { return e.Err }

// usageFailure names the usage report in an error reading, writing or
// printing it.
func usageFailure(err error) error {
	return fmt.Errorf("the usage report (what used the tunnel) failed: %w", err)
}
