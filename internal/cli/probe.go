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

// NewCmdProbe is probe: a dial through the tunnel, as the kube-apiserver makes it.
func NewCmdProbe() *command {
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
		Reads: reads{Endpoint: true, RenderedRoot: true, Unusable: exitFailure, BadKubeconfig: exitUsage},
		Exits: []exitLine{
			{exitSuccess, "the target (every target) was reached"},
			{exitFailure, "it was not"},
			usageExit,
		},
		Options: newProbeOptions,
	}
}

// probeOptions are probe's flags and its one TARGET.
type probeOptions struct {
	takesNothing // Validate: egressprobe reads the target
	egressprobe.Options
	format *output.Choice
	web    webhookFlags
}

func newProbeOptions(fs *pflag.FlagSet) options {
	o := &probeOptions{}
	rootFlag(fs, &o.Root, "host root render wrote under, whose egress selector and socket probe dials through", rootReads)
	fs.DurationVar(&o.Timeout, "timeout", 10*time.Second, "give up after this long; with --webhooks it also bounds every read of the kube-apiserver")
	o.format = outputFlag(fs, output.Text, output.JSON)
	fs.BoolVar(&o.web.on, "webhooks", false, "probe every Service-backed webhook and APIService of the kubeconfig's cluster")
	o.web.kube = kubeconfigFlag(fs, "with --webhooks, its webhooks and APIServices are listed and probed")
	fs.BoolVar(&o.web.endpoints, "endpoint-routing", false, "dial endpoints, as kube-apiserver --enable-aggregator-routing does (with --webhooks)")
	return o
}

// Complete takes the TARGET, which --webhooks goes without.
func (o *probeOptions) Complete(_ IO, args []string) error {
	switch {
	case o.web.on && len(args) != 0:
		return usagef("probe --webhooks takes no TARGET, got %d", len(args))
	case !o.web.on && len(args) != 1:
		return usagef("probe needs exactly one TARGET (host:port or https URL), got %d", len(args))
	case !o.web.on:
		o.Target = args[0]
	}
	return nil
}

// Run dials the target, or every webhook, through the tunnel.
func (o *probeOptions) Run(io IO) error {
	if o.web.on {
		return runWebhookProbe(io, o.format.Format(), o.Options, o.web)
	}
	res, err := egressprobe.Probe(io.context(), o.Options)
	if err != nil {
		return usagef("%v", err)
	}
	if err := output.Write(io.Stdout, o.format.Format(), res); err != nil {
		return err
	}
	if !res.OK {
		return &exitError{Code: 1}
	}
	return nil
}

// webhookFlags are probe --webhooks and the flags that go with it.
type webhookFlags struct {
	on, endpoints bool
	kube          *kubeconfigValue
}

func runWebhookProbe(io IO, format output.Format, opts egressprobe.Options, web webhookFlags) error {
	ctx, read := killPluginOnSignal(io.context())
	choice, cluster, err := web.kube.openCluster(ctx, io, opts.Root, opts.Timeout)
	read()
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
