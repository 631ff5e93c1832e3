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

// Run tears down as teardown.RunCommand does, under the CLI's guard of a
// host change, and prints the outcome.
func (o *teardownOptions) Run(io IO) error {
	g := newHostGuard(io, "teardown")
	defer g.sigs.settle() // the paths that end before the removal
	ctx, cancel := g.reads(io.context())
	defer cancel()
	choice := o.kube.find(io, o.Root)
	done, err := teardown.RunCommand(ctx, teardown.CommandOptions{Options: o.Options,
		Kubeconfig: choice, Timeout: o.timeout, TimeoutFlag: "--timeout", Usage: o.usage(choice), Guard: g.run})
	if err != nil && interrupted(g.sigs.ctx) {
		// nothing was removed: RunCommand fails before the removal only
		return &exitError{Code: exitInterruptedUndone, Err: fmt.Errorf("%v before the teardown changed anything: the host is as before", context.Cause(g.sigs.ctx))}
	}
	if err != nil {
		return err
	}
	if done.Report != nil {
		done.Report.WriteNotes(io.Stderr)
	}
	if !o.quiet {
		if perr := output.Write(io.Stdout, output.Text, done.Printed); perr != nil {
			done.UsageErr = errors.Join(done.UsageErr, fmt.Errorf("printing it: %w", perr))
		}
	}
	return teardownExit(g.sigs.ctx, io.Stderr, done)
}

// usage reads what used the tunnel before anything is removed, nil when
// nobody would see it.
func (o *teardownOptions) usage(choice kuberead.Choice) func(context.Context, *kuberead.Reader, time.Duration) (teardown.UsageReport, error) {
	if o.gatherDir == "" && o.quiet {
		return nil
	}
	return func(ctx context.Context, cluster *kuberead.Reader, timeout time.Duration) (teardown.UsageReport, error) {
		return usage.BeforeTeardown(ctx, o.Root, choice, cluster, o.gatherDir, timeout)
	}
}

// teardownExit maps the outcome to the exit: a signal, then teardown's own
// error, then the usage report's failure (exit 10). When something else
// decides, the report's failure is a warning, so it is named either way.
func teardownExit(ctx context.Context, stderr io.Writer, done teardown.Done) error {
	if w := done.Warning(); w != nil {
		fmt.Fprintf(stderr, "warning: %s\n", textsafe.Escape(w.Error()))
	}
	rep := done.Report
	if stop := interruption(ctx, "the teardown", rep.Unfinished(), rep != nil && rep.Recovered != "", done.Err); stop != nil {
		return stop
	}
	err := done.Failure()
	var ue *teardown.UnreachableError
	var uu *teardown.UsageError
	switch { // a locked root is exitLocked for every command: exitForError
	case errors.As(err, &ue):
		return &exitError{Code: exitUnreachable, Err: err}
	case errors.As(err, &uu):
		return &exitError{Code: exitReportNotWritten, Err: err}
	}
	return err
}
