package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/renderedroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/result"
	"github.com/spf13/pflag"
)

func newCheckCommand() *Command {
	return &Command{
		Name:  "check",
		Args:  "[FILE|DIR|-]",
		Short: "Check a bundle for everything that would break the tunnel",
		Long: `Checks a bundle (a YAML stream with some or all of the server static pod,
the agent DaemonSet, Secret and Namespace, the EgressSelectorConfiguration and
the KubeAPIServerConfig override) against the rules of proxy-server and
proxy-agent v0.36.0, kube-apiserver's egress loader and validator, and the
paths and values the objects must agree on. functions/check/README.md lists
every rule.

FILE is a YAML stream; - or no argument reads standard input; a DIR is a
kustomization, built in-process first (like 'build DIR', with --bootstrap-ip
and --image), or a host root that render wrote (a directory holding
var/lib/konnectivity-bundle/state.json): its files are checked as they are on
disk now, with the certificates of its certificate directory unless
--cert-dir says otherwise; the state file is only read.

Objects in a stream must be separated by '---' lines: files joined with cat
are reported as such, not parsed into one object.

Text output is one line per finding, each said once, in the shape every
command says a finding in:
  severity: [rule] object field: message (fix: ...)
then, when no finding is an error, one ok line; --quiet leaves out info
findings and the ok line.

Exit status: 0 no error findings (warnings allowed); 1 at least one error
finding; 2 usage error, unreadable input or certificate directory, or a DIR
that does not build.`,
		Setup: func(fs *pflag.FlagSet) func(IO, []string) error {
			format := outputFlag(fs, output.Text, output.JSON)
			certDir := fs.String("cert-dir", "", "certificate directory (ca.crt, server.crt, agent.crt, keys) to check SANs and signers")
			var opts check.Options
			var build kustbuild.Options
			bootstrapIPFlag(fs, &build.BootstrapIP, "for a DIR that is built (default "+bootstrapIPEnv+")")
			imageFlag(fs, &build.Image, &build.Pin, "for a DIR that is built")
			proxyVersionFlag(fs, &build.ProxyVersion)
			fs.BoolVar(&opts.AllowMissingClusterCA, "allow-missing-cluster-ca", false, "report a server without --cluster-ca-cert as a warning, not an error")
			fs.BoolVar(&opts.AllowEmpty, "allow-empty", false, "accept a bundle without a server pod (bootstrap-in-place)")
			var quiet bool
			quietFlag(fs, &quiet)
			return func(io IO, args []string) error {
				if len(args) > 1 {
					return Usagef("check takes at most one FILE, DIR or -, got %d", len(args))
				}
				build.Getenv = io.Getenv
				return runCheck(io, args, checkRun{format: format.Format(), certDir: *certDir, quiet: quiet}, opts, build)
			}
		},
	}
}

// checkRun is how check reports: its output format, the certificate
// directory it was given, and whether info and the success line are left out.
type checkRun struct {
	format  output.Format
	certDir string
	quiet   bool
}

func runCheck(io IO, args []string, run checkRun, opts check.Options, build kustbuild.Options) error {
	target := "-"
	if len(args) == 1 {
		target = args[0]
	}
	stream, err := readBundle(io, target, build)
	if err != nil {
		return &ExitError{Code: 2, Err: err}
	}
	if run.certDir != "" {
		if opts.CertFiles, err = check.ReadCertDir(run.certDir); err != nil {
			return &ExitError{Code: 2, Err: fmt.Errorf("--cert-dir: %w", err)}
		}
	} else if opts.CertFiles, err = renderedCertFiles(target); err != nil {
		return &ExitError{Code: 2, Err: fmt.Errorf("%s: %w", target, err)}
	}
	findings, err := check.Check(stream, opts)
	if err != nil {
		return &ExitError{Code: 2, Err: fmt.Errorf("%s: %w", describeTarget(target), err)}
	}
	code := result.ExitCode(findings)
	rep := checkReport{Findings: result.Findings(findings), stream: stream, target: target, certs: opts.CertFiles != nil, clean: code == 0, quiet: run.quiet}
	if err := output.Write(io.Stdout, run.format, rep); err != nil {
		return fmt.Errorf("writing findings: %w", err)
	}
	if code != 0 {
		r := result.NewReport(findings)
		return &ExitError{Code: code, Err: fmt.Errorf("%d error(s), %d warning(s) in %s", r.Errors, r.Warnings, describeTarget(target))}
	}
	return nil
}

// readBundle reads a YAML stream from stdin or a file, reads what render
// wrote under a host root, or builds a kustomization directory.
func readBundle(io IO, target string, build kustbuild.Options) ([]byte, error) {
	if target != "-" {
		st, err := os.Stat(target)
		if err != nil {
			return nil, fmt.Errorf("reading bundle: %w", err)
		}
		if st.IsDir() && !renderedroot.IsRoot(target) {
			if !hasKustomization(target) {
				return nil, fmt.Errorf("%s: nothing to check here: no kustomization to build (no kustomization.yaml) and nothing render wrote (no %s); give a bundle file, a kustomization directory, or a root render wrote",
					target, hostlayout.StatePath)
			}
			return kustbuild.Build(target, build) // its errors name the directory it built
		}
	}
	src, err := loadSource(io, target, build)
	if err != nil {
		return nil, fmt.Errorf("reading bundle: %w", err)
	}
	return src.Stream, nil
}

// renderedCertFiles reads the certificate directory of a rendered host
// root, confined to the root, so check verifies SANs and signers there
// without --cert-dir; nil for anything else.
func renderedCertFiles(target string) (map[string][]byte, error) {
	if target == "-" || !renderedroot.IsRoot(target) {
		return nil, nil
	}
	r, err := renderedroot.Load(target)
	if err != nil || r.CertDir == "" {
		return nil, nil // reading the bundle has reported a damaged root already
	}
	return check.ReadCertFiles(func(name string) ([]byte, error) {
		return r.ReadFile(filepath.Join(r.CertDir, name))
	})
}

func describeTarget(target string) string {
	if target == "-" {
		return "standard input"
	}
	return target
}
