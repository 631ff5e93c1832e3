// Command konnectivity-bundle generates, renders, checks and tears down the
// Konnectivity bundle of an OpenShift bootstrap node.
package main

import (
	"os"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/cli"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/gctune"
)

func main() {
	gctune.Tune()
	os.Exit(cli.Main(os.Args, cli.StdIO()))
}
