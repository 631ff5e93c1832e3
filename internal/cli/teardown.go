package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gather"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
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
owner mark, the namespace last, saying which kubeconfig it read. Idempotent. First it prints what
used the tunnel (--gather DIR: DIR/usage.json). docs/render.md says what it
removes, what it refuses and how; docs/troubleshooting.md the usage report.`

func newTeardownCommand() *command {
	return &command{
		Name:  "teardown",
		Short: "Remove the bundle from the bootstrap host and the cluster",
		Long:  teardownLong,
		Examples: []string{
			ProgramName + " teardown --root / --kubeconfig /opt/openshift/auth/kubeconfig",
			ProgramName + " teardown --root /tmp/root --quiet",
		},
		More: exitHelp("teardown") + `
A second signal stops it at once (a shell shows 130 or 143); the next
teardown continues.`,
		Setup: setupTeardown,
	}
}

func setupTeardown(fs *pflag.FlagSet) func(IO, []string) error {
	var opts teardown.Options
	var quiet bool
	var gatherDir string
	rootFlag(fs, &opts.Root, "host root directory to remove the bundle from, / on the bootstrap node", rootPlaces)
	kube := kubeconfigFlag(fs, "also delete the recorded cluster objects through it")
	fs.BoolVar(&opts.Strict, "strict", false, "exit 11 when the API server is unreachable instead of warning")
	quietFlag(fs, &quiet)
	gatherFlag(fs, &gatherDir, gather.UsageFile+" (what used the tunnel, read before anything is removed)")
	var timeout time.Duration
	fs.DurationVar(&timeout, "timeout", 30*time.Second, "give up after this long: the kubeconfig and its exec plugin, and the usage report (half of it at most each), then every read and delete of a cluster object (it bounds every read of the kube-apiserver); the files are removed whatever it says, and objects not deleted by then stay recorded")
	lockTimeoutFlag(fs, &opts.LockTimeout)
	return func(io IO, args []string) error {
		if len(args) > 0 {
			return usagef("teardown takes no arguments, got %q", args)
		}
		if timeout <= 0 {
			return usagef("--timeout: %s; give a positive duration such as 3s", timeout)
		}
		// An unusable kubeconfig fails before anything is read, written
		// or removed; the usage report reads through the same reader.
		// Half of --timeout at most for the kubeconfig (an exec plugin that
		// stalls), so an unusable one is said before the deadline, and
		// nothing is removed then, as for any unusable kubeconfig.
		openCtx, cancelOpen := context.WithTimeout(io.context(), timeout/2)
		choice, cluster, err := kube.openCluster(openCtx, io, opts.Root, timeout)
		cancelOpen()
		if err != nil {
			return err
		}
		if cluster != nil {
			opts.Cluster = teardown.ClusterOver(cluster)
			opts.Cluster.Deadline = io.context()
		}
		var use *usage.Report
		var reportErr error
		if gatherDir != "" || !quiet { // nobody would see it otherwise
			// A report that cannot be read or written never keeps the
			// tunnel up: it is named, and the removal goes on.
			// Half of --timeout at most, so the deletes always get the rest.
			ctx, cancel := context.WithTimeout(io.context(), timeout/2)
			use, reportErr = readUsage(ctx, opts.Root, choice, cluster, gatherDir, timeout/2)
			cancel()
		}
		// The lock wait is the host change's one wait that is not the
		// host's: --timeout bounds it too (the held host is never abandoned).
		if end, ok := io.context().Deadline(); ok && time.Until(end) < opts.LockTimeout {
			opts.LockTimeout, opts.LockFlag = max(time.Until(end), 0), "--timeout"
		}
		release, err := io.holdHost()
		if err != nil {
			return err
		}
		// The files go whatever the deadline: a teardown that timed out on
		// the cluster still removes the bundle from the host. The deadline
		// stops the deletes (opts.Cluster.Deadline).
		sigs := catchSignals(context.Background(), io.Stderr, "teardown")
		rep, err := teardown.Run(sigs.ctx, opts)
		sigs.settle()
		release()
		if perr := printTeardown(io, rep, kuberead.Summary(choice, cluster), use, quiet); perr != nil {
			reportErr = errors.Join(reportErr, fmt.Errorf("printing it: %w", perr))
		}
		return teardownExit(sigs.ctx, io.Stderr, rep, err, reportErr)
	}
}

// printTeardown writes what teardown did: recovery and warnings on stderr,
// its lines, the kubeconfig read and the usage table on stdout (not with
// quiet). The error is stdout's.
func printTeardown(io IO, rep *teardown.Report, kube kuberead.Used, use *usage.Report, quiet bool) error {
	if rep != nil {
		rep.WriteNotes(io.Stderr)
	}
	if quiet {
		return nil
	}
	return output.Write(io.Stdout, output.Text, teardownReport{rep: rep, kube: kube, use: use})
}

// teardownReport is what teardown writes on stdout: its lines (none when
// it never held the root's lock), the kubeconfig read (or why none), then
// the usage table when it was read.
type teardownReport struct {
	rep  *teardown.Report
	kube kuberead.Used
	use  *usage.Report
}

// WriteText writes each part as its package words it.
func (t teardownReport) WriteText(w io.Writer) error {
	if t.rep != nil {
		if err := t.rep.WriteText(w); err != nil {
			return err
		}
	}
	if err := t.kube.WriteText(w); err != nil || t.use == nil {
		return err
	}
	return printUsage(w, t.use)
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

// readUsage reads what used the tunnel while the server still runs and the
// cluster objects still exist, and writes usage.json into gather. The
// report it returns is what it could read, to print even when writing it
// failed.
func readUsage(ctx context.Context, root string, choice kuberead.Choice, cluster *kuberead.Reader, gatherDir string, timeout time.Duration) (*usage.Report, error) {
	st := hoststatus.Run(ctx, hoststatus.Options{Root: root, Timeout: timeout})
	use := collectUsage(ctx, st, choice, cluster)
	if gatherDir == "" {
		return use, nil
	}
	files := gather.Files{}
	if err := files.AddJSON(gather.UsageFile, use); err != nil {
		return use, fmt.Errorf("%s was not written: %w", filepath.Join(gatherDir, gather.UsageFile), err)
	}
	d, err := gather.Open(gatherDir)
	if err != nil {
		return use, err
	}
	return use, d.Write(files)
}
