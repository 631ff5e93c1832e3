package cli

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/bundlesource"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
	"github.com/spf13/pflag"
)

// NewCmdCheck is check: a bundle against every rule of the tunnel.
func NewCmdCheck() *command {
	return &command{
		Name:  "check",
		Args:  sourceArgs,
		Short: "Check a bundle for everything that would break the tunnel",
		Long: `Checks a bundle against the rules of proxy-server and proxy-agent, of the
kube-apiserver's egress loader and validator, and the paths and values the
objects must agree on (functions/check/README.md lists every rule). The
bundle is an overlay or a kustomization directory (built first, with
--bootstrap-ip and --image), a YAML file, a host root render wrote (with its
certificates) or - (the default: stdin; on a terminal, check says what it
expects). Text output is one line per finding, said once: severity: [rule]
object field: message (fix: ...); --quiet leaves out info and the ok line.`,
		Examples: []string{
			ProgramName + " check ipv6 --bootstrap-ip 2001:db8::10 --image " + exampleImage,
			ProgramName + " build ipv4 --bootstrap-ip 192.0.2.10 --proxy-version v0.36 | " + ProgramName + " check -o json",
			ProgramName + " check / --cert-dir /opt/openshift/tls/konnectivity" + needs("the bootstrap node, after render"),
		},
		Reads: reads{Input: true, RenderedRoot: true, Unusable: exitUsage},
		Exits: []exitLine{
			{exitSuccess, "no error findings (warnings allowed)"},
			{exitFailure, "at least one error finding"},
			{exitUsage, "usage error, unreadable input or certificate directory, or a DIR that does not build"},
		},
		Sources: 1,
		Options: newCheckOptions,
	}
}

// checkOptions are check's flags and argument: the rules' options, the
// build of a DIR, how it reports, the certificate directory.
type checkOptions struct {
	takesNothing
	check   check.Options
	build   kustbuild.Options
	format  *output.Choice
	certDir string
	quiet   bool
	target  string
	named   bool // the bundle was named, not left to the default (-)
}

func newCheckOptions(fs *pflag.FlagSet) options {
	o := &checkOptions{}
	o.format = outputFlag(fs, output.Text, output.JSON)
	fs.StringVar(&o.certDir, "cert-dir", "", "certificate directory (ca.crt, server.crt, agent.crt, keys) to check SANs and signers")
	bootstrapIPFlag(fs, &o.build.BootstrapIP, "for a DIR that is built (default "+bootstrapIPEnv+")")
	imageFlag(fs, &o.build.Image, &o.build.Pin, "for a DIR that is built")
	proxyVersionFlag(fs, &o.build.ProxyVersion)
	fs.BoolVar(&o.check.AllowMissingClusterCA, "allow-missing-cluster-ca", false, "report a server without --cluster-ca-cert as a warning, not an error")
	fs.BoolVar(&o.check.AllowEmpty, "allow-empty", false, "accept a bundle without a server pod (bootstrap-in-place)")
	quietFlag(fs, &o.quiet)
	return o
}

// Complete takes the one bundle argument (- by default) and the environment.
func (o *checkOptions) Complete(io IO, args []string) error {
	if len(args) > 1 {
		return usagef("check takes at most one OVERLAY, DIR, FILE, ROOT or -, got %d", len(args))
	}
	o.build.Getenv, o.build.Functions = io.Getenv, io.functions
	o.target, o.named = "-", len(args) == 1
	if o.named {
		o.target = args[0]
	}
	return nil
}

// Run reads the bundle (and certificates), checks it and reports.
func (o *checkOptions) Run(io IO) error {
	target, opts := o.target, o.check
	if !o.named && inputread.IsTerminal(io.Stdin) { // never a silent wait for typing; check - says so itself
		return usagef("%s", checkExpects)
	}
	src, err := bundlesource.ForCheck(stdinOf(io, "check"), target, o.build)
	stream := src.Stream
	if err != nil {
		return &exitError{Code: 2, Err: err}
	}
	if o.certDir != "" {
		if opts.CertFiles, err = check.ReadCertDir(o.certDir); err != nil {
			return &exitError{Code: 2, Err: fmt.Errorf("--cert-dir: %w", err)}
		}
	} else if opts.CertFiles, err = src.RenderedCertFiles(); err != nil {
		return &exitError{Code: 2, Err: fmt.Errorf("%s: %w", targetInError(target), err)}
	}
	findings, err := check.Check(stream, opts)
	if err != nil {
		return &exitError{Code: 2, Err: fmt.Errorf("%s: %w", targetInError(target), err)}
	}
	code := result.ExitCode(findings)
	rep := check.Checked{Findings: result.Findings(findings), Stream: stream, Target: describeTarget(target), Certs: opts.CertFiles != nil, Quiet: o.quiet}
	if err := output.Write(io.Stdout, o.format.Format(), rep); err != nil {
		return fmt.Errorf("writing findings: %w", err)
	}
	if code != 0 {
		r := result.NewReport(findings)
		return &exitError{Code: code, Err: fmt.Errorf("%d error(s), %d warning(s) in %s", r.Errors, r.Warnings, targetInError(target))}
	}
	return nil
}

// checkExpects is what check with no argument says when stdin is a
// terminal, where it would otherwise wait silently for a bundle to be typed.
const checkExpects = "no bundle given, and stdin is a terminal: pipe one in (" + ProgramName + " build --bootstrap-ip IP " +
	"--proxy-version VERSION | " + ProgramName + " check), or name it: check OVERLAY, DIR, FILE or ROOT (check - reads the terminal)"

func describeTarget(target string) string {
	if target == "-" {
		return "standard input"
	}
	return target
}

// targetInError names the bundle argument in check's errors, escaped:
// errors keep their own line breaks, so a newline typed in a path would
// start a line of its own.
func targetInError(target string) textsafe.Value {
	return textsafe.Value(describeTarget(target))
}
