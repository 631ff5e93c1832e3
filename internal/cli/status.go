package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gather"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
)

const statusLong = `Reports whether the Konnectivity tunnel on this bootstrap host is usable:
the files render wrote under --root, the server's socket and the egress
selector's, the server's health, how many agents are connected and the
certificates, each problem with a hint. With --kubeconfig it also says per
node why its agent is not connected, and what used the tunnel, saying which
kubeconfig it read and from where (or why none); --gather DIR writes the
reports for the log bundle. See docs/troubleshooting.md.`

func newStatusCommand() *command {
	return &command{
		Name:  "status",
		Short: "Diagnose the tunnel on the bootstrap host: server, socket, agents, certificates",
		Long:  statusLong,
		Examples: []string{
			ProgramName + " status" + needs("the bootstrap node"),
			ProgramName + " status --kubeconfig /opt/openshift/auth/kubeconfig --gather /var/log/bootstrap-control-plane/konnectivity" + needs("the bootstrap node"),
			ProgramName + " status --root ./root -o json" + needs("a root render wrote, with its server running"),
		},
		Exits: tableExits("status"),
		Setup: setupStatus,
	}
}

func setupStatus(fs *pflag.FlagSet) func(IO, []string) error {
	var opts hoststatus.Options
	rootFlag(fs, &opts.Root, "host root render wrote under, whose files, server and certificates status checks", rootReads)
	fs.StringVar(&opts.HealthHost, "health-host", "127.0.0.1", "address of the server's health and admin ports")
	fs.DurationVar(&opts.Timeout, "timeout", 10*time.Second, "give up after this long: the whole run, every HTTP read from the server and the kube-apiserver (body included; it bounds every read of the kube-apiserver), and the wait for the root's lock when an interrupted run must be recovered first")
	format := outputFlag(fs, output.Text, output.JSON)
	var gatherDir string
	gatherFlag(fs, &gatherDir, gather.StatusFile+", "+gather.MetricsFile+" and "+gather.UsageFile)
	kube := kubeconfigFlag(fs, "each node's agent is judged through it, and the usage report reads its metrics")
	return func(io IO, args []string) error {
		if len(args) > 0 {
			return usagef("status takes no arguments, got %q", args)
		}
		choice, cluster, err := kube.openCluster(io.context(), io, opts.Root, opts.Timeout)
		if err != nil {
			return usagef("%v", err)
		}
		recovered, err := recoverInterrupted(io, opts.Root, opts.Timeout)
		if err != nil {
			return err
		}
		hosttxn.WriteCleanup(io.Stderr, recovered, nil)
		ctx := io.context()
		rep := statusReport{host: hoststatus.Run(ctx, opts)}
		rep.nodes = statusNodes(ctx, rep.host, choice, cluster)
		// The usage table ends the text output; JSON leaves it to usage.json.
		if gatherDir != "" || (cluster != nil && format.Format() == output.Text) { // where it is shown or written
			rep.use = collectUsage(ctx, rep.host, choice, cluster)
		}
		rep.kube = kuberead.Summary(choice, cluster)
		if err := output.Write(io.Stdout, format.Format(), rep); err != nil {
			return err
		}
		if gatherDir != "" {
			if err := gatherStatus(gatherDir, rep); err != nil {
				return err
			}
		}
		if !rep.host.Usable {
			return &exitError{Code: exitFailure}
		}
		return nil
	}
}

// gatherStatus writes the report as JSON, the server's metrics and the
// usage report into dir.
func gatherStatus(dir string, rep statusReport) error {
	files := gather.Files{}
	if err := files.AddJSON(gather.StatusFile, rep); err != nil {
		return err
	}
	if rep.host.Metrics != "" {
		files[gather.MetricsFile] = []byte(rep.host.Metrics)
	}
	if err := files.AddJSON(gather.UsageFile, rep.use); err != nil {
		return err
	}
	d, err := gather.Open(dir)
	if err != nil {
		return err
	}
	return d.Write(files)
}

// recoverInterrupted finishes or undoes a render an interrupted run left
// under root, and the scratch files a killed run left, so status reports a
// host render can explain. With neither it changes nothing and takes no lock.
// It waits for the lock at most wait, status's --timeout: the wait of a
// diagnosis is bounded, and a run holding the lock finishes or undoes its
// own journal anyway.
func recoverInterrupted(io IO, root string, wait time.Duration) (string, error) {
	release, err := io.holdHost()
	if err != nil {
		return "", err
	}
	defer release()
	// The lock wait is --timeout's own (LockTimeout), so it ends as
	// "locked", exit 6, not as the deadline's "timed out".
	s, err := hosttxn.Begin(context.Background(), root, hosttxn.SessionOptions{
		OnlyIfPending: true, LockTimeout: wait, LockFlag: "--timeout",
	})
	var bad *hosttxn.RootError
	var locked *hostfs.LockedError
	switch {
	case errors.As(err, &bad):
		return "", nil // status itself reports the bad root
	case errors.As(err, &locked):
		return "", fmt.Errorf("an interrupted run waits to be recovered, and %w", locked)
	case err != nil:
		return "", err
	}
	defer s.Close()
	return s.Recovered, nil
}
