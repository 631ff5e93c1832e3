package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/netreq"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/renderedroot"
)

const portsLong = `Prints the network requirements of a bundle, read from its objects (so a
customised agent port or bootstrap IP shows up as it will be deployed): which
port, which protocol, from where to where, for how long, and which object and
flag each value comes from.

The argument is a bundle file, - for stdin, a kustomization directory or an
overlay name (built with --bootstrap-ip/--image), or a host root that render
wrote (a directory holding var/lib/konnectivity-bundle/state.json). Without
one it builds the default overlay (` + kustbuild.DefaultOverlay + `).

Only the agent tunnel crosses the network: TCP agent-port from every cluster
node to the bootstrap host, during the bootstrap phase only.

With --output FORMAT it writes that tunnel as firewall rules instead: nftables
(an own table that accepts the nodes and drops everyone else on the agent
port; with --nft-chain, rules added to a default-drop host's chain),
iptables (iptables and ip6tables), firewalld (runtime and permanent
rich rules), and for clouds aws, aws-cloudformation, aws-terraform,
gcp, azure and openstack. The source is the node network: --from
CIDR, repeated for each subnet or family; --from-anywhere allows every
address and must be asked for (a /0 --from is refused). The cloud
formats need --infra-id, the cluster's infrastructure ID, which every rule
carries. --revoke writes the form that removes exactly those rules. The
bundle values the rules carry must pass check's rules for them (agents'
--proxy-server-host an IP or DNS name, object names DNS-1123), else nothing
is written. See docs/firewall.md.

Exit status: 0 printed; 1 the bundle cannot be read, or a rule format refuses
what it holds; 2 usage error, such as a flag problem (--from missing or /0,
--output unknown).`

func newPortsCommand() *Command {
	return &Command{
		Name:  "ports",
		Args:  "[FILE|DIR|OVERLAY|ROOT]",
		Short: "Print the network requirements (ports, direction, duration) of a bundle",
		Long:  portsLong,
		Setup: setupPorts,
	}
}

func setupPorts(fs *pflag.FlagSet) func(IO, []string) error {
	var opts kustbuild.Options
	var rf ruleFlags
	bootstrapIPFlag(fs, &opts.BootstrapIP, "when building (default "+bootstrapIPEnv+")")
	imageFlag(fs, &opts.Image, &opts.Pin, "when building")
	proxyVersionFlag(fs, &opts.ProxyVersion)
	format := outputFlag(fs, append([]output.Format{output.Text, output.JSON}, output.FromNames(firewall.Formats()...)...)...)
	rf.register(fs)
	return func(io IO, args []string) error {
		if len(args) > 1 {
			return Usagef("ports takes at most one FILE, DIR, OVERLAY or ROOT, got %d", len(args))
		}
		ruleOpts, err := rf.options(string(format.Format()))
		if err != nil {
			return err
		}
		target := kustbuild.DefaultOverlay
		if len(args) == 1 {
			target = args[0]
		}
		opts.Getenv = io.Getenv
		if err := missingBootstrapIP(target, opts); err != nil {
			return err
		}
		label, b, err := loadForPorts(io, target, opts)
		if err != nil {
			return err
		}
		rep, err := netreq.Requirements(label, b)
		if err != nil {
			return fmt.Errorf("%s: %w", label, err)
		}
		return output.Write(io.Stdout, format.Format(), portsReport{Report: rep, bundle: b, rules: ruleOpts})
	}
}

func loadForPorts(io IO, target string, opts kustbuild.Options) (string, *bundlemodel.Bundle, error) {
	if target != "-" && renderedroot.IsRoot(target) {
		r, err := renderedroot.Load(target)
		if err != nil {
			return "", nil, err
		}
		return "the host root " + target, r.Bundle, nil
	}
	src, err := loadUnrendered(target, io.Stdin, opts)
	if err != nil {
		return "", nil, err
	}
	b, err := bundlemodel.Parse(src.Stream)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", src.Label, err)
	}
	return src.Label, b, nil
}
