package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/netreq"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
)

const portsLong = `Prints the network requirements of a bundle, read from its objects (so a
customised agent port or bootstrap IP shows up as it will be deployed): only
the agent tunnel crosses the network, TCP agent-port from every cluster node
to the bootstrap host, during the bootstrap phase. The bundle is taken as
check takes it; without one, ports builds the default overlay (` + kustbuild.DefaultOverlay + `).
--output nftables, iptables, firewalld or a cloud format writes the rules
instead, from the node network (--from); see docs/firewall.md.`

func newPortsCommand() *command {
	return &command{
		Name:  "ports",
		Args:  sourceArgs,
		Short: "Print the network requirements (ports, direction, duration) of a bundle",
		Long:  portsLong,
		Examples: []string{
			ProgramName + " ports ipv4 --bootstrap-ip 192.0.2.10",
			ProgramName + " ports / -o nftables --from 10.0.0.0/16",
			ProgramName + " ports / -o aws --from 10.0.0.0/16 --infra-id mycluster-x7k2p",
		},
		More: `Exit status: 0 printed; 1 the bundle cannot be read, or a rule format refuses
what it holds; 2 usage error, such as a flag problem (--from missing or /0,
--output unknown).`,
		Sources: 1,
		Setup:   setupPorts,
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
			return usagef("ports takes at most one OVERLAY, DIR, FILE, ROOT or -, got %d", len(args))
		}
		ruleOpts, err := rf.options(string(format.Format()))
		if err != nil {
			return err
		}
		target := kustbuild.DefaultOverlay
		if len(args) == 1 {
			target = args[0]
		}
		opts.Getenv, opts.Functions = io.Getenv, served
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
	src, dir, err := readSourceArg(target, io.Stdin)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		src, err = loadOverlayArg(target, opts)
	case err != nil || !dir:
	case renderedroot.IsRoot(target):
		r, err := renderedroot.Load(target)
		if err != nil {
			return "", nil, err
		}
		return "the host root " + target, r.Bundle, nil
	default:
		src, err = buildSourceDir(target, opts)
	}
	if err == nil {
		err = refuseUnknownFields(src)
	}
	if err != nil {
		return "", nil, err
	}
	b, err := bundlemodel.Parse(src.Stream)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", src.Label, err)
	}
	return src.Label, b, nil
}
