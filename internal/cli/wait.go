package cli

import (
	"context"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gate"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gather"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/nodeverdict"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

// waitLong is what wait --help says before its flags; the rest, how it
// polls and reads the node side, is in docs/troubleshooting.md.
const waitLong = `Waits on the bootstrap host until the Konnectivity tunnel can carry the
kube-apiserver's webhook calls: the server is healthy, at least --min-agents
agents are connected, and a test dial through the socket reaches each
--target (with a kubeconfig, found as --kubeconfig says, every
Service-backed webhook and APIService).
Progress goes to stderr; on --timeout it exits 1 with one verdict, the cause
and its fix. See docs/troubleshooting.md.`

// NewCmdWait is wait: until the tunnel is up, or its --timeout.
func NewCmdWait() *command {
	return &command{
		Name:  "wait",
		Short: "Wait until the tunnel is up: server healthy, agents connected, a dial through it",
		Long:  waitLong,
		Examples: []string{
			ProgramName + " wait --timeout 5m" + needs("the bootstrap node's cluster"),
			ProgramName + " wait --kubeconfig /opt/openshift/auth/kubeconfig --gather /var/log/bootstrap-control-plane/konnectivity" + needs("the bootstrap node's cluster"),
		},
		More:  "The causes, in the order the gate meets them:\n" + waitCauses(),
		Reads: reads{Endpoint: true, RenderedRoot: true, Unusable: exitFailure, BadKubeconfig: exitUsage},
		Exits: tableExits("wait"),
		Overrun: func(fs *pflag.FlagSet) time.Duration {
			dial, _ := fs.GetDuration("dial-timeout")
			return gate.Overrun(gate.Options{DialTimeout: dial})
		},
		NoArgs:   true,
		ArgsHint: "; a target goes in --target",
		Options:  newWaitOptions,
	}
}

// waitOptions are wait's flags.
type waitOptions struct {
	gate.Options
	format    *output.Choice
	gatherDir string
	kube      *kubeconfigValue
	dir       *gather.Dir
}

func newWaitOptions(fs *pflag.FlagSet) options {
	o := &waitOptions{}
	rootFlag(fs, &o.Status.Root, "host root render wrote under, whose server and socket wait polls", rootReads)
	fs.StringVar(&o.Status.HealthHost, "health-host", "127.0.0.1", "address of the server's health and admin ports")
	fs.IntVar(&o.MinAgents, "min-agents", 1, "how many agents must be connected")
	fs.StringArrayVar(&o.Targets, "target", nil, "host:port or http(s) URL to dial through the socket (repeatable)")
	o.kube = kubeconfigFlag(fs, "also dial every Service-backed webhook and APIService, and name per node why its agent is not connected")
	fs.BoolVar(&o.EndpointRouting, "endpoint-routing", false, "dial endpoints, as kube-apiserver --enable-aggregator-routing does (with a kubeconfig)")
	fs.DurationVar(&o.Timeout, "timeout", 10*time.Minute, "give up after this long; it also bounds every read of the kube-apiserver")
	fs.DurationVar(&o.DialTimeout, "dial-timeout", 5*time.Second, "timeout of each test dial")
	fs.StringVar(&o.ServerLog, "server-log", "", "the server's log, read for refused agent handshakes (default: the kubelet's log under --root)")
	o.format = outputFlag(fs, output.Text, output.JSON)
	gatherFlag(fs, &o.gatherDir, gather.WaitFile+" (the --output json verdict)")
	return o
}

// Complete opens the --gather directory, which wait must be able to
// write before it waits.
func (o *waitOptions) Complete(IO, []string) error {
	if o.gatherDir != "" {
		d, err := gather.Open(o.gatherDir)
		if err != nil {
			return &usageError{Msg: err.Error()}
		}
		o.dir = &d
	}
	return nil
}

// Validate refuses an agent count, timeout or target wait cannot use.
func (o *waitOptions) Validate() error { return checkWaitFlags(o.Options) }

// Run waits for the gate's verdict and reports it; 1 when not ready.
func (o *waitOptions) Run(io IO) error {
	// Ctrl-C prints the verdict so far, also while the kubeconfig is read:
	// its exec plugin may take long, and is killed with the context.
	o.Started = time.Now() // the kubeconfig's read counts toward --timeout, as it does for the command
	sigs := catchSignals(io.context(), io.Stderr, "wait")
	choice, cluster, err := o.kube.openCluster(sigs.ctx, io, o.Status.Root, o.Timeout)
	switch {
	case err != nil && interrupted(sigs.ctx):
		o.NoNodes = "the kubeconfig was not read: " + context.Cause(sigs.ctx).Error()
	case err != nil:
		sigs.settle()
		return usagef("%v", err)
	case cluster != nil:
		o.Cluster, o.Nodes = cluster, nodeverdict.Over(cluster)
	default:
		o.NoNodes = choice.String()
	}
	o.Progress = func(p gate.Progress) { gate.WriteProgress(io.Stderr, p) }
	v := gate.Wait(sigs.ctx, o.Options) // stopped before it began: its one poll, cut short, is the verdict so far
	sigs.settle()
	used := kuberead.Summary(choice, cluster)
	v.Kubeconfig = &used
	if err := output.Write(io.Stdout, o.format.Format(), gate.Printed{Verdict: v}); err != nil {
		return err
	}
	if o.dir != nil {
		if err := v.Gather(*o.dir); err != nil {
			return &exitError{Code: exitReportNotWritten, Err: err}
		}
	}
	if stop := interruption(sigs.ctx, "the wait", "", false, context.Cause(sigs.ctx)); stop != nil && !v.Ready {
		return stop
	}
	if !v.Ready {
		return &exitError{Code: exitFailure}
	}
	return nil
}

func checkWaitFlags(opts gate.Options) error {
	switch {
	case opts.MinAgents < 1:
		return usagef("--min-agents: %d; give 1 or more", opts.MinAgents)
	case opts.Timeout <= 0:
		return usagef("--timeout: %s; give a positive duration such as 10m", opts.Timeout)
	}
	for _, t := range opts.Targets {
		if err := egressprobe.CheckTarget(t); err != nil {
			return usagef("--target: %v", err)
		}
	}
	return nil
}
