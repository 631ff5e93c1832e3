package cli

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/dispatch"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/certset"
	"github.com/spf13/pflag"
)

// served is every kind the binary serves, as fn, the legacy plugin and
// every in-process build run them: the KonnectivityCerts function's
// spec.generate writes through the host writers' journaled writer, which
// neither dispatch nor the function may import, so it is wired in here.
var served = dispatch.Functions{WriteCerts: certset.EnsureDir}

// NewCmdFn is fn: the binary as a KRM function.
func NewCmdFn() *command {
	return &command{
		Name:           "fn",
		GeneratesCerts: true,
		Short:          "Run as a KRM function (ResourceList on stdin, ResourceList on stdout)",
		Long: wrap(`Serves the kinds `+strings.Join(dispatch.Kinds(), ", ")+`
of apiVersion bundle.konnectivity.io/v1alpha1, chosen by the ResourceList's
functionConfig.
kustomize runs it as an exec KRM function (exec: {path: konnectivity-bundle},
args: [fn]), and only with BOTH --enable-alpha-plugins and --enable-exec:
with the first flag alone it skips the function without a word and the
bundle is missing from the output (docs/kustomize.md).`, helpWidth),
		Examples: []string{
			ProgramName + " fn < resourcelist.yaml" + needs("a ResourceList in resourcelist.yaml"),
		},
		Reads: reads{Input: true, Unusable: exitFailure},
		Exits: []exitLine{
			{exitSuccess, "success"},
			{exitFailure, "any error result (each printed to stderr with its field path)"},
			usageExit,
		},
		NoArgs:   true,
		ArgsHint: "; it reads a ResourceList on stdin",
		Options:  func(*pflag.FlagSet) options { return &fnOptions{} },
	}
}

// fnOptions are fn's: it takes no flags and no arguments.
type fnOptions struct{ takesNothing }

// Run runs the function the ResourceList's functionConfig names.
func (*fnOptions) Run(io IO) error { return io.functions.Run(io.Stdin, io.Stdout, io.Getenv) }

// legacyPlugin answers when kustomize runs the binary as a legacy exec plugin:
// kustomize finds it at $KUSTOMIZE_PLUGIN_HOME/<group>/<version>/<kind>/<Kind>
// (a link to this binary) and passes the config file path as the only argument.
func legacyPlugin(argv0 string, args []string, io IO) (bool, int) {
	if _, ok := served.Lookup(argv0); !ok {
		return false, 0
	}
	if len(args) < 1 {
		fmt.Fprintf(io.Stderr, "%s: run as the kustomize legacy exec plugin %s, expected the plugin config file as the first argument\n", ProgramName, argv0)
		return true, 2
	}
	if err := served.RunLegacy(argv0, args[0], io.Stdin, io.Stdout, io.Getenv); err != nil {
		fmt.Fprintf(io.Stderr, "%s (%s plugin): %s\n", ProgramName, argv0, errorText(err))
		return true, 1
	}
	return true, 0
}
