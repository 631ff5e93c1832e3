package cli

import (
	"fmt"
	"net/netip"
	"os"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlediff"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/bundlesource"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/dispatch"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

var diffLong = wrap(`Compares bundle A (old) with bundle B (new) the way a reviewer reads them:
objects matched by apiVersion, kind, namespace and name, each changed field
one line, container args flag by flag. A and B are each taken as check
takes a bundle (an overlay, a kustomization directory, a file, a host root
render wrote, or -);
--bootstrap-ip, --image and --proxy-version take A,B to build each side
with its own. Secret data, certificates and keys show as fingerprints.`, helpWidth)

// NewCmdDiff is diff: two bundles compared object by object.
func NewCmdDiff() *command {
	return &command{
		Name:  "diff",
		Args:  "A B",
		Short: "Show what differs between two bundles, object by object and field by field",
		Long:  diffLong,
		Examples: []string{
			ProgramName + " diff ipv4 ipv6 --bootstrap-ip 192.0.2.10,2001:db8::10 --proxy-version v0.36",
			ProgramName + " diff / ipv4 --bootstrap-ip 192.0.2.10 --proxy-version v0.36 -o markdown" + needs("the bootstrap node, after render"),
			ProgramName + " diff old.yaml new.yaml",
		},
		Reads: reads{Input: true, RenderedRoot: true, Unusable: exitUsage},
		Exits: []exitLine{
			{exitSuccess, "no differences (like diff(1))"},
			{exitFailure, "differences"},
			{exitUsage, "an error: a usage error, or a side that cannot be read or built"},
		},
		Sources: 2,
		Options: newDiffOptions,
	}
}

// diffOptions are diff's flags and its two bundles.
type diffOptions struct {
	images   []string
	ips      []netip.Addr
	versions []*proxyversion.Version
	pin      kustbuild.PinPolicy
	colour   string
	overlays bool
	format   *output.Choice
	args     []string
	sides    [2]kustbuild.Options
	useColor bool
}

func newDiffOptions(fs *pflag.FlagSet) options {
	o := &diffOptions{}
	fs.BoolVar(&o.overlays, "overlays", false, "A and B are overlay names (compare two overlays' builds)")
	bootstrapIPPairFlag(fs, &o.ips)
	imagePairFlag(fs, &o.images)
	proxyVersionPairFlag(fs, &o.versions)
	pinFlags(fs, &o.pin)
	o.format = outputFlag(fs, bundlediff.Formats...)
	fs.StringVar(&o.colour, "color", "auto", "colour text output: auto (only when stdout is a terminal), always, never")
	return o
}

// Complete takes A and B, the colour for stdout, and each side's build.
func (o *diffOptions) Complete(io IO, args []string) (err error) {
	if len(args) != 2 {
		return usagef("diff needs exactly two bundles A and B, got %d", len(args))
	}
	o.args = args
	if o.useColor, err = wantColour(o.colour, io); err != nil {
		return usagef("--color: %v", err)
	}
	if o.sides, err = sideOptions(o.ips, o.images, o.versions, io.Getenv, io.functions); err != nil {
		return err
	}
	o.sides[0].Pin, o.sides[1].Pin = o.pin, o.pin
	return nil
}

// Validate refuses stdin on both sides.
func (o *diffOptions) Validate() error {
	if o.args[0] == "-" && o.args[1] == "-" {
		return usagef("only one of A and B can be - (stdin)")
	}
	return nil
}

// Run reads both bundles and prints what differs; 1 when anything does.
func (o *diffOptions) Run(io IO) error {
	sides, err := bundlesource.Pair(stdinOf(io, "diff"), [2]string(o.args), o.overlays, o.sides)
	if err != nil {
		return &exitError{Code: 2, Err: perSideHint(err, o.ips, o.images)}
	}
	res := bundlediff.Compare(sides[0].Label, sides[0].Objects, sides[1].Label, sides[1].Objects)
	if err := output.Write(io.Stdout, o.format.Format(), bundlediff.Report{Result: res, Colour: o.useColor}); err != nil {
		return &exitError{Code: 2, Err: fmt.Errorf("write output: %w", err)}
	}
	if !res.Equal() {
		return &exitError{Code: 1}
	}
	return nil
}

// sideOptions gives each side its build inputs: one value serves both sides,
// two (A,B) differ per side, e.g. --overlays ipv4 ipv6 --bootstrap-ip 192.0.2.10,2001:db8::10.
func sideOptions(ips []netip.Addr, images []string, versions []*proxyversion.Version, getenv func(string) string, functions dispatch.Functions) ([2]kustbuild.Options, error) {
	var opts [2]kustbuild.Options
	ipA, ipB, err := perSide("--bootstrap-ip", ips)
	if err != nil {
		return opts, err
	}
	imageA, imageB, err := perSide("--image", images)
	if err != nil {
		return opts, err
	}
	versionA, versionB, err := perSide("--proxy-version", versions)
	if err != nil {
		return opts, err
	}
	opts[0] = kustbuild.Options{BootstrapIP: ipA, Image: imageA, ProxyVersion: versionA, Getenv: getenv, Functions: functions}
	opts[1] = kustbuild.Options{BootstrapIP: ipB, Image: imageB, ProxyVersion: versionB, Getenv: getenv, Functions: functions}
	return opts, nil
}

// perSide splits a flag's values between A and B: none, one for both, or A,B.
func perSide[T any](flag string, vals []T) (a, b T, err error) {
	switch len(vals) {
	case 0:
	case 1:
		a, b = vals[0], vals[0]
	case 2:
		a, b = vals[0], vals[1]
	default:
		err = usagef("%s takes one value or two (A,B), got %d", flag, len(vals))
	}
	return a, b, err
}

// perSideHint adds to a side's build error, when it concerns a flag given
// one value that served both sides (an IPv4 --bootstrap-ip for an ipv6
// overlay), how to give each side its own value.
func perSideHint(err error, addrs []netip.Addr, images []string) error {
	msg := strings.ToLower(err.Error())
	ips := make([]string, len(addrs))
	for i, a := range addrs {
		ips[i] = a.String()
	}
	for _, f := range []struct {
		flag, about, example string
		vals                 []string
	}{
		{"--bootstrap-ip", "bootstrap", "192.0.2.10,2001:db8::10", ips},
		{"--image", "image", "IMAGE_A,IMAGE_B", images},
	} {
		if len(f.vals) == 1 && strings.Contains(msg, f.about) {
			return fmt.Errorf("%w\n%s %s served both A and B; give each side its own value as A,B, e.g. %s %s", err, f.flag, f.vals[0], f.flag, f.example)
		}
	}
	return err
}

// wantColour decides colouring: auto colours only a terminal, and NO_COLOR
// (https://no-color.org) turns auto off.
func wantColour(mode string, io IO) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if io.Getenv != nil && io.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		f, ok := io.Stdout.(*os.File)
		return ok && term.IsTerminal(int(f.Fd())), nil
	}
	return false, fmt.Errorf("unknown value %q; use auto, always or never", mode)
}
