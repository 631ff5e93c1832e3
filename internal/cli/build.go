package cli

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/result"
	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

func newBuildCommand() *Command {
	return &Command{
		Name:  "build",
		Args:  "[OVERLAY|DIR]",
		Short: "Build an overlay or kustomization in-process and print the bundle",
		Long: `Builds a kustomization with the bundle.konnectivity.io functions run
in-process: no kustomize binary and no konnectivity-bundle on PATH needed.
The output is byte-identical to

  kustomize build --enable-alpha-plugins --enable-exec DIR

With no argument it builds the default overlay (` + kustbuild.DefaultOverlay + `) embedded in the
binary. An argument that is an existing directory is built from disk;
otherwise it names an embedded overlay: ` + strings.Join(kustbuild.Overlays(), ", ") + `.

Exit status: 0 success; 1 build or config error; 2 usage error.`,
		Setup: func(fs *pflag.FlagSet) func(IO, []string) error {
			var opts kustbuild.Options
			var quiet bool
			bootstrapIPFlag(fs, &opts.BootstrapIP, "default "+bootstrapIPEnv)
			imageFlag(fs, &opts.Image, &opts.Pin, "else a placeholder for kustomize images:")
			proxyVersionFlag(fs, &opts.ProxyVersion)
			quietFlag(fs, &quiet)
			return func(io IO, args []string) error {
				if len(args) > 1 {
					return Usagef("build takes at most one OVERLAY or DIR, got %d", len(args))
				}
				target := ""
				if len(args) == 1 {
					target = args[0]
				}
				opts.Getenv = io.Getenv
				if err := missingBootstrapIP(target, opts); err != nil {
					return err
				}
				var notes framework.Results
				opts.Notes = &notes
				out, err := kustbuild.Build(target, opts)
				if err != nil {
					return err
				}
				if err := result.Say(io.Stderr, notes, quiet); err != nil {
					return err
				}
				_, err = fmt.Fprint(io.Stdout, string(out))
				return err
			}
		},
	}
}
