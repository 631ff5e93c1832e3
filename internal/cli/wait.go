package cli

import (
	"context"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/gate"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/gather"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/nodeverdict"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/output"
)

// waitLong is wait --help up to its list of causes.
const waitLong = `Waits on the bootstrap host until the Konnectivity tunnel can carry the
kube-apiserver's webhook calls, then exits 0: the server is healthy, at least
--min-agents agents are connected, and a test dial through the socket
succeeds: each --target, and with a kubeconfig every Service-backed
admission webhook and APIService that probe --webhooks knows (none
registered: the server and agents alone decide).

Each poll is a status run and a probe of each target, so wait gives the
same verdicts as status and probe. While it waits it prints on stderr what
it is waiting for and for how long, when that changes and every 5s. The
poll under way when --timeout passes finishes first (at most --dial-timeout
per test dial and the kube-apiserver's answers), so that its verdict is the
tunnel's and not the deadline's. On --timeout it exits 1 with one verdict
naming the cause and the fix. The causes, in the order the gate meets them:
`

// waitLongRest follows the causes, which gate.Causes lists (waitcauses.go).
var waitLongRest = `While fewer than --min-agents agents are connected, the verdict carries one
line per node that should run an agent, read through the bootstrap
kube-apiserver with the kubeconfig (the agent DaemonSet, its pods, the
namespace's events, the nodes; read-only, at most once a second): no pod
(DaemonSet missing, nodeSelector, a taint not tolerated), node not Ready,
not scheduled, image-pull, secret-missing, config-error, crash-loop (with
the agent's last message), not-ready (for how long), handshake-refused
(the server's log shows it refusing the node's address: another CA, or a
certificate outside its validity), port-blocked (never ready and nothing
from the node reached the server: the agent port's rule for that node), or
connected; each with its fix, and the cause most nodes share as the
verdict's fix. Without a kubeconfig, or when a read is refused, it says
it cannot see the node side and why (the verb and resource a kubeconfig
lacks); it never guesses. RBAC: docs/troubleshooting.md. The verdict says
which kubeconfig was read and from where, or why none was ("kubeconfig"
in --output json), and names a list cut at the cap on items.

The server's log is read for refused handshakes from --server-log, else
from the kubelet's log of the static pod under --root
(var/log/pods/kube-system_konnectivity-server*/konnectivity-server/*.log);
the rendered pod makes grpc-go log them (GRPC_GO_LOG_SEVERITY_LEVEL=info).

--gather DIR also writes DIR/wait.json, the --output json verdict, through
a temporary file and a rename, whatever the verdict: the bootkube wait stage
leaves it for openshift-install gather bootstrap (docs/bootkube.md). DIR is
created before the wait starts, so a bad one is refused at once.

` + exitHelp("wait")

func newWaitCommand() *Command {
	return &Command{
		Name:  "wait",
		Short: "Wait until the tunnel is up: server healthy, agents connected, a test dial through the socket",
		Long:  waitLong + waitCauses() + "\n\n" + waitLongRest,
		Setup: setupWait,
	}
}

func setupWait(fs *pflag.FlagSet) func(IO, []string) error {
	var opts gate.Options
	var gatherDir string
	rootFlag(fs, &opts.Status.Root, "host root render wrote under", rootReads)
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
				return &UsageError{Msg: err.Error()}
			}
			dir = &d
		}
		choice, cluster, err := kube.openCluster(io, opts.Status.Root, opts.Timeout)
		if err != nil {
			return Usagef("%v", err)
		}
		if cluster != nil {
			opts.Cluster, opts.Nodes = cluster, nodeverdict.Over(cluster)
		} else {
			opts.NoNodes = choice.String()
		}
		opts.Progress = func(p gate.Progress) { gate.WriteProgress(io.Stderr, p) }
		v := gate.Wait(context.Background(), opts)
		used := kuberead.Summary(choice, cluster)
		v.Kubeconfig = &used
		if err := output.Write(io.Stdout, format.Format(), waitReport{v}); err != nil {
			return err
		}
		if dir != nil {
			if err := gatherVerdict(*dir, v); err != nil {
				return &ExitError{Code: exitReportNotWritten, Err: err}
			}
		}
		if !v.Ready {
			return &ExitError{Code: exitFailure}
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
		return Usagef("wait takes no arguments, got %q; a target goes in --target", args)
	case opts.MinAgents < 1:
		return Usagef("--min-agents: %d; give 1 or more", opts.MinAgents)
	case opts.Timeout <= 0:
		return Usagef("--timeout: %s; give a positive duration such as 10m", opts.Timeout)
	}
	for _, t := range opts.Targets {
		if err := egressprobe.CheckTarget(t); err != nil {
			return Usagef("--target: %v", err)
		}
	}
	return nil
}
