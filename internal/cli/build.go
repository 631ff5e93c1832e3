package cli

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// NewCmdBuild is build: an overlay or kustomization built in-process.
func NewCmdBuild() *command {
	return &command{
		Name:           "build",
		GeneratesCerts: true,
		Args:           buildArgs,
		Short:          "Build an overlay or kustomization in-process and print the bundle",
		Long: wrap(`Builds OVERLAY, an overlay embedded in the binary (`+strings.Join(kustbuild.Overlays(), ", ")+`;
default `+kustbuild.DefaultOverlay+`), or a kustomization DIR (an existing directory wins over an
overlay of its name; a file of an overlay's name is refused: move it, or run elsewhere), with the bundle.konnectivity.io functions run in-process: no
kustomize or konnectivity-bundle on PATH needed. The output is byte-identical to
kustomize build --enable-alpha-plugins --enable-exec DIR.`, helpWidth),
		Examples: []string{
			ProgramName + " build ipv6 --bootstrap-ip 2001:db8::10 --image " + exampleImage,
			ProgramName + " build ./my-overlay > bundle.yaml" + needs("your kustomization in ./my-overlay"),
		},
		Reads:   reads{Instead: "builds an embedded overlay or a kustomization DIR from disk; no endpoint, no stream"},
		Exits:   []exitLine{{exitSuccess, "success"}, {exitFailure, "build or config error"}, usageExit},
		Sources: 1,
		Options: newBuildOptions,
	}
}

// buildOptions are build's flags and argument.
type buildOptions struct {
	takesNothing // Validate: kustbuild.Build refuses a flag a build needs that nothing names (IsFlagError: a usage error)
	kustbuild.Options
	quiet   bool
	verbose bool
	target  string
}

func newBuildOptions(fs *pflag.FlagSet) options {
	o := &buildOptions{}
	bootstrapIPFlag(fs, &o.BootstrapIP, "default "+bootstrapIPEnv)
	imageFlag(fs, &o.Image, &o.Pin, "else a placeholder for kustomize images:")
	proxyVersionFlag(fs, &o.ProxyVersion)
	quietFlag(fs, &o.quiet)
	verboseFlag(fs, &o.verbose)
	return o
}

// Complete takes the overlay or directory and the environment.
func (o *buildOptions) Complete(io IO, args []string) (err error) {
	o.Getenv, o.Functions = io.Getenv, io.functions
	o.target, err = overlayArg("build", args)
	return err
}

// Run builds and prints the bundle, its notes on stderr.
func (o *buildOptions) Run(io IO) error {
	var notes framework.Results
	o.Notes = &notes
	out, err := kustbuild.Build(o.target, o.Options)
	if err != nil {
		return err
	}
	if err := result.Say(io.Stderr, notes, result.SaysInfo(false, o.quiet, o.verbose)); err != nil {
		return err
	}
	_, err = fmt.Fprint(io.Stdout, string(out))
	return err
}
