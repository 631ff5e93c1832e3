package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/gather"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/output"
)

var statusLong = `Reports whether the Konnectivity tunnel on this bootstrap host is usable.
It reads what render wrote under --root (its state file and the files it
lists), then checks: the files are there as written; the server's socket
exists with mode 0770; the egress selector's socket is the server's (through
the kube-apiserver's mount); the server's /healthz and /readyz on its health
port; how many agents are connected (the server's /metrics); and the
certificates' expiry, chain and SAN. Each problem comes with a hint.

With a kubeconfig (see --kubeconfig for where it is found), when fewer
agents are connected than nodes should run one (or none is), the report
ends with one line per node saying why its agent is not connected, and
its fix, as wait gives them (see wait --help; the RBAC it needs is in
docs/troubleshooting.md); "nodes" in --output json. Without one and no
agent connected, it says the node side is not seen and why. The report
says which kubeconfig was read and from where, or why none was
("kubeconfig" in --output json), and names a list cut at the cap on items.

--gather DIR also writes DIR/status.json (the --output json report),
DIR/metrics.txt (the server's /metrics as read) and DIR/usage.json (what
used the tunnel), each atomically, for a log bundle:
/var/log/bootstrap-control-plane/konnectivity is collected by
openshift-install gather bootstrap (docs/troubleshooting.md). With --gather
or a kubeconfig, the text output ends with the usage report's table.

` + usageHelp + `

If a render was interrupted (its journal var/lib/konnectivity-bundle/txn.json
exists), status first takes the root's lock, waiting at most --timeout for
a run that holds it, and finishes or undoes it, saying which on stderr, so
it reports a host render can explain.

` + exitHelp("status")

func newStatusCommand() *Command {
	return &Command{
		Name:  "status",
		Short: "Diagnose the tunnel on the bootstrap host: server, socket, agents, certificates",
		Long:  statusLong,
		Setup: setupStatus,
	}
}

func setupStatus(fs *pflag.FlagSet) func(IO, []string) error {
	var opts hoststatus.Options
	rootFlag(fs, &opts.Root, "host root render wrote under", rootReads)
	fs.StringVar(&opts.HealthHost, "health-host", "127.0.0.1", "address of the server's health and admin ports")
	fs.DurationVar(&opts.Timeout, "timeout", 3*time.Second, "timeout of each HTTP read from the server and the kube-apiserver (body included; it bounds every read of the kube-apiserver), and of the wait for the root's lock when an interrupted run must be recovered first")
	format := outputFlag(fs, output.Text, output.JSON)
	var gatherDir string
	gatherFlag(fs, &gatherDir, gather.StatusFile+", "+gather.MetricsFile+" and "+gather.UsageFile)
	kube := kubeconfigFlag(fs, "each node's agent is judged through it, and the usage report reads its metrics")
	return func(io IO, args []string) error {
		if len(args) > 0 {
			return Usagef("status takes no arguments, got %q", args)
		}
		choice, cluster, err := kube.openCluster(io, opts.Root, opts.Timeout)
		if err != nil {
			return Usagef("%v", err)
		}
		if msg, err := recoverInterrupted(opts.Root, opts.Timeout); err != nil {
			return err
		} else if msg != "" {
			fmt.Fprintf(io.Stderr, "recovered: %s\n", msg)
		}
		ctx := context.Background()
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
			return &ExitError{Code: exitFailure}
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
func recoverInterrupted(root string, wait time.Duration) (string, error) {
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
