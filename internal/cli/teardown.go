package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gather"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/usage"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/teardown"
)

const teardownLong = `Removes what render recorded in <root>/var/lib/konnectivity-bundle/state.json:
the static pod manifest first, then every other file and the directories
render created; with a kubeconfig (found as --kubeconfig says; --kubeconfig ""
removes the files only) also the recorded cluster objects that carry its
owner mark, the namespace last, saying which kubeconfig it read. Idempotent.
First it prints what used the tunnel (--gather DIR: DIR/usage.json).
docs/render.md says what it removes, what it refuses and how;
docs/troubleshooting.md the usage report.`

// NewCmdTeardown is teardown: the bundle off the bootstrap host and the cluster.
func NewCmdTeardown() *command {
	return &command{
		Name:  "teardown",
		Short: "Remove the bundle from the bootstrap host and the cluster",
		Long:  teardownLong,
		Examples: []string{
			ProgramName + " teardown --root / --kubeconfig /opt/openshift/auth/kubeconfig" + needs("root on the bootstrap node"),
			ProgramName + " teardown --root ./root --quiet",
		},
		Reads:  reads{Endpoint: true, Unusable: exitSuccess, BadKubeconfig: exitFailure},
		Writes: writesHost,
		Exits:  tableExits("teardown"),
		After: `
A second signal stops it at once (a shell shows 130 or 143); the next
teardown continues.`,
		NoArgs:  true,
		Options: newTeardownOptions,
	}
}

// teardownOptions are teardown's flags.
type teardownOptions struct {
	takesNothing
	teardown.Options
	quiet     bool
	gatherDir string
	kube      *kubeconfigValue
	timeout   time.Duration
}

func newTeardownOptions(fs *pflag.FlagSet) options {
	o := &teardownOptions{}
	rootFlag(fs, &o.Root, "host root directory to remove the bundle from, / on the bootstrap node", rootPlaces)
	o.kube = kubeconfigFlag(fs, "also delete the recorded cluster objects through it")
	fs.BoolVar(&o.Strict, "strict", false, "exit 11 when the API server is unreachable instead of warning")
	quietFlag(fs, &o.quiet)
	gatherFlag(fs, &o.gatherDir, gather.UsageFile+" (what used the tunnel, read before anything is removed)")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "give up after this long: the kubeconfig and its exec plugin, and the usage report (half of it at most each), then every read and delete of a cluster object (it bounds every read of the kube-apiserver); the files are removed whatever it says, and objects not deleted by then stay recorded")
	lockTimeoutFlag(fs, &o.LockTimeout)
	return o
}

// Validate refuses a --timeout that leaves no time at all.
func (o *teardownOptions) Validate() error {
	if o.timeout <= 0 {
		return usagef("--timeout: %s; give a positive duration such as 3s", o.timeout)
	}
	return nil
}

// Run opens the cluster, reads the usage report, then removes the bundle
// under the root's lock (stopping at a signal) and reports.
func (o *teardownOptions) Run(io IO) error {
	choice, cluster, err := o.openCluster(io)
	if err != nil {
		return err
	}
	var use *usage.Report
	var reportErr error
	if o.gatherDir != "" || !o.quiet { // nobody would see it otherwise
		// A report that cannot be read or written never keeps the
		// tunnel up: it is named, and the removal goes on.
		// Half of --timeout at most, so the deletes always get the rest.
		ctx, cancel := context.WithTimeout(io.context(), o.timeout/2)
		use, reportErr = usage.BeforeTeardown(ctx, o.Root, choice, cluster, o.gatherDir, o.timeout/2)
		cancel()
	}
	release, err := io.holdHost()
	if err != nil {
		return err
	}
	rep, sigs, err := o.remove(io)
	release()
	if rep != nil {
		rep.WriteNotes(io.Stderr)
	}
	if !o.quiet {
		printed := teardown.Printed{Report: rep, Kube: kuberead.Summary(choice, cluster), Usage: use}
		if perr := output.Write(io.Stdout, output.Text, printed); perr != nil {
			reportErr = errors.Join(reportErr, fmt.Errorf("printing it: %w", perr))
		}
	}
	return teardownExit(sigs.ctx, io.Stderr, rep, err, reportErr)
}

// openCluster opens the kubeconfig, and sets the cluster teardown deletes
// through. An unusable kubeconfig fails before
// anything is read, written or removed; the usage report reads through the
// same reader. Half of --timeout at most for the kubeconfig (an exec
// plugin that stalls), so an unusable one is said before the deadline, and
// nothing is removed then, as for any unusable kubeconfig.
func (o *teardownOptions) openCluster(io IO) (kuberead.Choice, *kuberead.Reader, error) {
	ctx, cancel := context.WithTimeout(io.context(), o.timeout/2)
	defer cancel()
	choice, cluster, err := o.kube.openCluster(ctx, io, o.Root, o.timeout)
	if err != nil {
		return choice, nil, err
	}
	if cluster != nil {
		o.Cluster = teardown.ClusterOver(cluster)
		o.Cluster.Deadline = io.context()
	}
	return choice, cluster, nil
}

// remove runs teardown on the host, which the caller holds: the files go
// whatever the deadline (a teardown that timed out on the cluster still
// removes the bundle from the host; the deadline stops the deletes,
// o.Cluster.Deadline). The lock wait is the one wait that is not the
// host's: --timeout bounds it too.
func (o *teardownOptions) remove(io IO) (*teardown.Report, *signals, error) {
	if end, ok := io.context().Deadline(); ok && time.Until(end) < o.LockTimeout {
		o.LockTimeout, o.LockFlag = max(time.Until(end), 0), "--timeout"
	}
	sigs := catchSignals(context.Background(), io.Stderr, "teardown")
	rep, err := teardown.Run(sigs.ctx, o.Options)
	sigs.settle()
	return rep, sigs, err
}

// teardownExit decides the exit: a signal, then teardown's own error, then
// the usage report's failure (exit 10). When something else decides, the
// report's failure is a warning, so it is named either way.
func teardownExit(ctx context.Context, stderr io.Writer, rep *teardown.Report, err, reportErr error) error {
	if reportErr != nil && (err != nil || ctx.Err() != nil) {
		fmt.Fprintf(stderr, "warning: %s\n", textsafe.Escape(reportFailure(reportErr).Error()))
	}
	if stop := interruption(ctx, "the teardown", rep.Unfinished(), rep != nil && rep.Recovered != "", err); stop != nil {
		return stop
	}
	var ue *teardown.UnreachableError
	switch { // a locked root is exitLocked for every command: exitForError
	case errors.As(err, &ue):
		return &exitError{Code: exitUnreachable, Err: err}
	case err == nil && reportErr != nil:
		return &exitError{Code: exitReportNotWritten, Err: fmt.Errorf("the teardown is done, but %w", reportFailure(reportErr))}
	}
	return err
}

// reportFailure names the usage report in an error reading, writing or
// printing it.
func reportFailure(err error) error {
	return fmt.Errorf("the usage report (what used the tunnel) failed: %w", err)
}
