package cli

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gather"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/statusreport"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

const statusLong = `Reports whether the Konnectivity tunnel on this bootstrap host is usable:
the files render wrote under --root, the server's socket and the egress
selector's, the server's health, how many agents are connected and the
certificates, each problem with a hint. With --kubeconfig it also says per
node why its agent is not connected, and what used the tunnel, saying which
kubeconfig it read and from where (or why none); --gather DIR writes the
reports for the log bundle. See docs/troubleshooting.md.`

// NewCmdStatus is status: the tunnel on the bootstrap host, diagnosed.
func NewCmdStatus() *command {
	return &command{
		Name:  "status",
		Short: "Diagnose the tunnel on the bootstrap host: server, socket, agents, certificates",
		Long:  statusLong,
		Examples: []string{
			ProgramName + " status" + needs("the bootstrap node"),
			ProgramName + " status --kubeconfig /opt/openshift/auth/kubeconfig --gather /var/log/bootstrap-control-plane/konnectivity" + needs("the bootstrap node"),
			ProgramName + " status --root ./root -o json" + needs("a root render wrote, with its server running"),
		},
		Reads:   reads{Endpoint: true, RenderedRoot: true, Unusable: exitFailure, BadKubeconfig: exitUsage},
		Exits:   tableExits("status"),
		NoArgs:  true,
		Options: newStatusOptions,
	}
}

// statusOptions are status's flags.
type statusOptions struct {
	takesNothing
	hoststatus.Options
	format    *output.Choice
	gatherDir string
	kube      *kubeconfigValue
}

func newStatusOptions(fs *pflag.FlagSet) options {
	o := &statusOptions{}
	rootFlag(fs, &o.Root, "host root render wrote under, whose files, server and certificates status checks", rootReads)
	fs.StringVar(&o.HealthHost, "health-host", "127.0.0.1", "address of the server's health and admin ports")
	fs.DurationVar(&o.Timeout, "timeout", 10*time.Second, "give up after this long: the whole run, every HTTP read from the server and the kube-apiserver (body included; it bounds every read of the kube-apiserver), and the wait for the root's lock when an interrupted run must be recovered first")
	o.format = outputFlag(fs, output.Text, output.JSON)
	gatherFlag(fs, &o.gatherDir, gather.StatusFile+", "+gather.MetricsFile+" and "+gather.UsageFile)
	o.kube = kubeconfigFlag(fs, "each node's agent is judged through it, and the usage report reads its metrics")
	return o
}

// Run recovers an interrupted run first, then reports (statusreport);
// 1 when the tunnel is not usable.
func (o *statusOptions) Run(io IO) error {
	ctx, read := killPluginOnSignal(io.context())
	choice, cluster, err := o.kube.openCluster(ctx, io, o.Root, o.Timeout)
	read()
	if err != nil {
		return usagef("%v", err)
	}
	// The usage table ends the text output; JSON leaves it to usage.json.
	rep, err := statusreport.Run(io.context(), statusreport.Options{Host: o.Options, Choice: choice, Cluster: cluster,
		Usage: o.gatherDir != "" || (cluster != nil && o.format.Format() == output.Text),
		Hold:  io.holdHost, TimeoutFlag: "--timeout", Notes: io.Stderr})
	if err != nil {
		return err
	}
	if err := output.Write(io.Stdout, o.format.Format(), rep); err != nil {
		return err
	}
	if o.gatherDir != "" {
		if err := rep.Gather(o.gatherDir); err != nil {
			return err
		}
	}
	if !rep.Host.Usable {
		return &exitError{Code: exitFailure}
	}
	return nil
}
