// Command konnectivity-bundle generates, renders, checks and tears down the
// Konnectivity bundle of an OpenShift bootstrap node.
package main

import (
	"os"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/cli"
)

// version is set at link time by make and deploy/image/build.sh
// (-ldflags "-X main.version=$(git describe ...)"), which works in any
// checkout, git worktrees included, where the toolchain stamps nothing.
var version string

func main() {
	os.Exit(cli.New(cli.Config{Version: version}).Main(os.Args, cli.StdIO()))
}
