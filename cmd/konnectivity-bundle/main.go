// Command konnectivity-bundle generates, renders, checks and tears down the
// Konnectivity bundle of an OpenShift bootstrap node.
package main

import (
	"os"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/cli"
)

// version is set at link time by make and deploy/image/build.sh
// (-ldflags "-X main.version=$(git describe ...)"), which works in any
// checkout, git worktrees included, where the toolchain stamps nothing.
var version string

func main() {
	// client-go logs through klog to stderr ("E1128 ... request.go:1196]
	// \"Unexpected error when reading response body\""), beside the error
	// the command itself reports: the same failure said twice, in another
	// voice. The command's own error is the one voice, so klog says nothing.
	klog.SetLogger(logr.Discard())
	os.Exit(cli.New(cli.Config{Version: version}).Main(os.Args, cli.StdIO()))
}
