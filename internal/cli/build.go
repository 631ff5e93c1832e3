package cli

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

func newBuildCommand() *command {
	return &command{
		Name:  "build",
		Args:  buildArgs,
		Short: "Build an overlay or kustomization in-process and print the bundle",
		Long: wrap(`Builds OVERLAY, an overlay embedded in the binary (`+strings.Join(kustbuild.Overlays(), ", ")+`;
default `+kustbuild.DefaultOverlay+`), or a kustomization DIR (an existing directory wins over an
overlay of its name; a file of an overlay's name is refused: move it, or run elsewhere), with the bundle.konnectivity.io functions run in-process: no
kustomize or konnectivity-bundle on PATH needed. The output is byte-identical to
kustomize build --enable-alpha-plugins --enable-exec DIR.`, helpWidth),
		Examples: []string{
			ProgramName + " build ipv6 --bootstrap-ip 2001:db8::10 --image " + exampleImage,
			ProgramName + " build ./my-overlay > bundle.yaml",
		},
		More:    "Exit status: 0 success; 1 build or config error; 2 usage error.",
		Sources: 1,
		Setup: func(fs *pflag.FlagSet) func(IO, []string) error {
			var opts kustbuild.Options
			var quiet, verbose bool
			bootstrapIPFlag(fs, &opts.BootstrapIP, "default "+bootstrapIPEnv)
			imageFlag(fs, &opts.Image, &opts.Pin, "else a placeholder for kustomize images:")
			proxyVersionFlag(fs, &opts.ProxyVersion)
			quietFlag(fs, &quiet)
			verboseFlag(fs, &verbose)
			return func(io IO, args []string) error {
				target, err := overlayArg("build", args)
				if err != nil {
					return err
				}
				opts.Getenv, opts.Functions = io.Getenv, served
				var notes framework.Results
				opts.Notes = &notes
				out, err := kustbuild.Build(target, opts)
				if err != nil {
					return err
				}
				if err := result.Say(io.Stderr, notes, result.SaysInfo(false, quiet, verbose)); err != nil {
					return err
				}
				_, err = fmt.Fprint(io.Stdout, string(out))
				return err
			}
		},
	}
}
