package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/netreq"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/bundlesource"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

const portsLong = `Prints the network requirements of a bundle, read from its objects (so a
customised agent port or bootstrap IP shows up as it will be deployed): only
the agent tunnel crosses the network, TCP agent-port from every cluster node
to the bootstrap host, during the bootstrap phase. The bundle is taken as
check takes it; without one, ports builds the default overlay (` + kustbuild.DefaultOverlay + `).
--output nftables, iptables, firewalld or a cloud format writes the rules
instead, from the node network (--from); see docs/firewall.md.`

// NewCmdPorts is ports: what the network must allow for a bundle.
func NewCmdPorts() *command {
	return &command{
		Name:  "ports",
		Args:  sourceArgs,
		Short: "Print the network requirements (ports, direction, duration) of a bundle",
		Long:  portsLong,
		Examples: []string{
			ProgramName + " ports ipv4 --bootstrap-ip 192.0.2.10 --proxy-version v0.36",
			ProgramName + " ports / -o nftables --from 10.0.0.0/16" + needs("the bootstrap node, after render"),
			ProgramName + " ports / -o aws --from 10.0.0.0/16 --infra-id mycluster-x7k2p" + needs("the bootstrap node, after render"),
		},
		Reads: reads{Input: true, RenderedRoot: true, Unusable: exitFailure},
		Exits: []exitLine{
			{exitSuccess, "printed"},
			{exitFailure, "the bundle cannot be read, or a rule format refuses what it holds"},
			{exitUsage, "usage error, such as a flag problem (--from missing or /0, --output unknown)"},
		},
		Sources: 1,
		Options: newPortsOptions,
	}
}

// portsOptions are ports' flags and its bundle argument.
type portsOptions struct {
	takesNothing // Validate: kustbuild refuses a flag a build needs that nothing names (IsFlagError: a usage error)
	build        kustbuild.Options
	rules        ruleFlags
	format       *output.Choice
	ruleOpts     firewall.Options
	target       string
}

func newPortsOptions(fs *pflag.FlagSet) options {
	o := &portsOptions{}
	bootstrapIPFlag(fs, &o.build.BootstrapIP, "when building (default "+bootstrapIPEnv+")")
	imageFlag(fs, &o.build.Image, &o.build.Pin, "when building")
	proxyVersionFlag(fs, &o.build.ProxyVersion)
	o.format = outputFlag(fs, append([]output.Format{output.Text, output.JSON}, output.FromNames(firewall.Formats()...)...)...)
	o.rules.register(fs)
	return o
}

// Complete takes the bundle (the default overlay without one), the rule
// format's options and the environment.
func (o *portsOptions) Complete(io IO, args []string) (err error) {
	if len(args) > 1 {
		return usagef("ports takes at most one OVERLAY, DIR, FILE, ROOT or -, got %d", len(args))
	}
	if o.ruleOpts, err = o.rules.options(string(o.format.Format())); err != nil {
		return err
	}
	o.target = kustbuild.DefaultOverlay
	if len(args) == 1 {
		o.target = args[0]
	}
	o.build.Getenv, o.build.Functions = io.Getenv, io.functions
	return nil
}

// Run reads the bundle and prints what the network must allow.
func (o *portsOptions) Run(io IO) error {
	label, b, err := bundlesource.Model(stdinOf(io, "ports"), o.target, o.build)
	if err != nil {
		return err
	}
	rep, err := netreq.Requirements(label, b)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	return output.Write(io.Stdout, o.format.Format(), netreq.Printed{Report: rep, Rules: o.ruleOpts, Refused: ruleInputFindings(b)})
}
