// Command konnectivity-bundle generates, renders, checks and tears down the
// Konnectivity bundle of an OpenShift bootstrap node.
package main

import (
	"os"
	"runtime/debug"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/cli"
)

// version is set at link time by make and deploy/image/build.sh
// (-ldflags "-X main.version=$(git describe ...)"), which works in any
// checkout, git worktrees included, where the toolchain stamps nothing.
var version string

func main() {
	tuneGC()
	os.Exit(cli.New(cli.Config{Version: version}).Main(os.Args, cli.StdIO()))
}

// tuneGC: every command is a short run that allocates a few tens of MB,
// mostly garbage from YAML decoding; collecting at 4x the live heap instead
// of 2x saves about a third of the CPU time of a render. The memory limit
// makes the collector work harder before the process grows past it. An
// explicit GOGC or GOMEMLIMIT wins.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(512 << 20)
	}
}
