package cli

import (
	"context"
	"io"
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

func newWaitCommand() *command {
	return &command{
		Name:  "wait",
		Short: "Wait until the tunnel is up: server healthy, agents connected, a test dial through the socket",
		Long:  waitLong,
		Examples: []string{
			ProgramName + " wait --timeout 5m",
			ProgramName + " wait --kubeconfig /opt/openshift/auth/kubeconfig --gather /var/log/bootstrap-control-plane/konnectivity",
		},
		More: "The causes, in the order the gate meets them:\n" + waitCauses() + "\n\n" + exitHelp("wait"),
		Overrun: func(fs *pflag.FlagSet) time.Duration {
			dial, _ := fs.GetDuration("dial-timeout")
			return gate.Overrun(gate.Options{DialTimeout: dial})
		},
		Setup: setupWait,
	}
}

func setupWait(fs *pflag.FlagSet) func(IO, []string) error {
	var opts gate.Options
	var gatherDir string
	rootFlag(fs, &opts.Status.Root, "host root render wrote under, whose server and socket wait polls", rootReads)
	fs.StringVar(&opts.Status.HealthHost, "health-host", "127.0.0.1", "address of the server's health and admin ports")
	fs.IntVar(&opts.MinAgents, "min-agents", 1, "how many agents must be connected")
	fs.StringArrayVar(&opts.Targets, "target", nil, "host:port or http(s) URL to dial through the socket (repeatable)")
	kube := kubeconfigFlag(fs, "also dial every Service-backed webhook and APIService, and name per node why its agent is not connected")
	fs.BoolVar(&opts.EndpointRouting, "endpoint-routing", false, "dial endpoints, as kube-apiserver --enable-aggregator-routing does (with a kubeconfig)")
	fs.DurationVar(&opts.Timeout, "timeout", 10*time.Minute, "give up after this long; it also bounds every read of the kube-apiserver")
	fs.DurationVar(&opts.DialTimeout, "dial-timeout", 5*time.Second, "timeout of each test dial")
	fs.StringVar(&opts.ServerLog, "server-log", "", "the server's log, read for refused agent handshakes (default: the kubelet's log under --root)")
	format := outputFlag(fs, output.Text, output.JSON)
	gatherFlag(fs, &gatherDir, gather.WaitFile+" (the --output json verdict)")
	return func(io IO, args []string) error {
		if err := checkWaitArgs(args, opts); err != nil {
			return err
		}
		var dir *gather.Dir
		if gatherDir != "" {
			d, err := gather.Open(gatherDir)
			if err != nil {
				return &usageError{Msg: err.Error()}
			}
			dir = &d
		}
		choice, cluster, err := kube.openCluster(io.context(), io, opts.Status.Root, opts.Timeout)
		if err != nil {
			return usagef("%v", err)
		}
		if cluster != nil {
			opts.Cluster, opts.Nodes = cluster, nodeverdict.Over(cluster)
		} else {
			opts.NoNodes = choice.String()
		}
		opts.Progress = func(p gate.Progress) { gate.WriteProgress(io.Stderr, p) }
		sigs := catchSignals(io.context(), io.Stderr, "wait") // Ctrl-C prints the verdict so far
		v := gate.Wait(sigs.ctx, opts)
		sigs.settle()
		used := kuberead.Summary(choice, cluster)
		v.Kubeconfig = &used
		if err := output.Write(io.Stdout, format.Format(), waitReport{v}); err != nil {
			return err
		}
		if dir != nil {
			if err := gatherVerdict(*dir, v); err != nil {
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
}

// waitReport is the verdict, then in text the kubeconfig line (in JSON
// the verdict's own "kubeconfig").
type waitReport struct{ v *gate.Verdict }

// WriteText writes the verdict and the kubeconfig read.
func (r waitReport) WriteText(w io.Writer) error {
	if err := r.v.WriteText(w); err != nil {
		return err
	}
	return r.v.Kubeconfig.WriteText(w)
}

// JSONDocument is the verdict's.
func (r waitReport) JSONDocument() any { return r.v.JSONDocument() }

// gatherVerdict writes the verdict as --output json does into dir/wait.json,
// atomically, as status --gather writes status.json.
func gatherVerdict(dir gather.Dir, v *gate.Verdict) error {
	files := gather.Files{}
	if err := files.AddJSON(gather.WaitFile, v); err != nil {
		return err
	}
	return dir.Write(files)
}

func checkWaitArgs(args []string, opts gate.Options) error {
	switch {
	case len(args) > 0:
		return usagef("wait takes no arguments, got %q; a target goes in --target", args)
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
