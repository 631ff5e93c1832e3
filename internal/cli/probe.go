package cli

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

const probeLong = `Dials TARGET through the Konnectivity socket exactly as the bootstrap
kube-apiserver does (its rendered EgressSelectorConfiguration under --root,
loaded and dialed by the kube-apiserver's rules) and reports success, the
proxy's error and the time taken. TARGET is host:port (a TCP connect) or an
http(s) URL (also asked with GET). With --webhooks it dials every
Service-backed webhook and APIService of --kubeconfig's cluster instead:
reachable, refused, no agent, timeout or no endpoint (docs/troubleshooting.md);
it says on stderr which kubeconfig it read and from where.`

func newProbeCommand() *command {
	return &command{
		Name:  "probe",
		Args:  "TARGET | --webhooks [--kubeconfig FILE]",
		Short: "Dial a host:port or URL through the tunnel exactly as the kube-apiserver does",
		Long:  probeLong,
		Examples: []string{
			ProgramName + " probe 172.30.12.34:443" + needs("the bootstrap node's tunnel"),
			ProgramName + " probe https://172.30.12.34:443/" + needs("the bootstrap node's tunnel"),
			ProgramName + " probe --webhooks --kubeconfig /opt/openshift/auth/kubeconfig" + needs("the bootstrap node's cluster"),
		},
		Exits: exits(exitSuccess, "the target (every target) was reached", exitFailure, "it was not", exitUsage, ""),
		Setup: setupProbe,
	}
}

func setupProbe(fs *pflag.FlagSet) func(IO, []string) error {
	var opts egressprobe.Options
	rootFlag(fs, &opts.Root, "host root render wrote under, whose egress selector and socket probe dials through", rootReads)
	fs.DurationVar(&opts.Timeout, "timeout", 10*time.Second, "give up after this long; with --webhooks it also bounds every read of the kube-apiserver")
	format := outputFlag(fs, output.Text, output.JSON)
	var web webhookFlags
	fs.BoolVar(&web.on, "webhooks", false, "probe every Service-backed webhook and APIService of the kubeconfig's cluster")
	web.kube = kubeconfigFlag(fs, "with --webhooks, its webhooks and APIServices are listed and probed")
	fs.BoolVar(&web.endpoints, "endpoint-routing", false, "dial endpoints, as kube-apiserver --enable-aggregator-routing does (with --webhooks)")
	return func(io IO, args []string) error {
		if web.on {
			return runWebhookProbe(io, args, format.Format(), opts, web)
		}
		if len(args) != 1 {
			return usagef("probe needs exactly one TARGET (host:port or https URL), got %d", len(args))
		}
		opts.Target = args[0]
		res, err := egressprobe.Probe(io.context(), opts)
		if err != nil {
			return usagef("%v", err)
		}
		if err := output.Write(io.Stdout, format.Format(), res); err != nil {
			return err
		}
		if !res.OK {
			return &exitError{Code: 1}
		}
		return nil
	}
}

type webhookFlags struct {
	on, endpoints bool
	kube          *kubeconfigValue
}

func runWebhookProbe(io IO, args []string, format output.Format, opts egressprobe.Options, web webhookFlags) error {
	switch {
	case len(args) != 0:
		return usagef("probe --webhooks takes no TARGET, got %d", len(args))
	}
	choice, cluster, err := web.kube.openCluster(io.context(), io, opts.Root, opts.Timeout)
	switch {
	case err != nil:
		return usagef("%v", err)
	case cluster == nil:
		return usagef("probe --webhooks needs the bootstrap kube-apiserver's kubeconfig: %s", choice)
	}
	rs, err := webhookprobe.Run(io.context(), cluster, webhookprobe.Options{Root: opts.Root, EndpointRouting: web.endpoints, Timeout: opts.Timeout})
	if werr := kuberead.Summary(choice, cluster).WriteText(io.Stderr); werr != nil {
		return werr
	}
	if err != nil {
		return err
	}
	if err := output.Write(io.Stdout, format, rs); err != nil {
		return err
	}
	if !webhookprobe.AllReachable(rs) {
		return &exitError{Code: 1}
	}
	return nil
}
