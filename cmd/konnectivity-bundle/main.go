// Command konnectivity-bundle generates, renders, checks and tears down the
// Konnectivity bundle of an OpenShift bootstrap node.
package main

import (
	"os"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args, cli.StdIO()))
}
