// Command konnectivity-bundle generates, renders, checks and tears down the
// Konnectivity bundle of an OpenShift bootstrap node.
package main

import (
	"os"
	"runtime/debug"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/cli"
)

// version is set at link time by make and deploy/image/build.sh
// (-ldflags "-X main.version=$(git describe ...)"), which works in any
// checkout, git worktrees included, where the toolchain stamps nothing.
var version string

// memoryLimit is the heap the collector works to stay under (GOMEMLIMIT
// overrides it). Each answer of the kube-apiserver is capped at 32 MiB
// (internal/intake/kuberead), but wait reads them poll after poll, and the
// collector's default pacing lets the garbage of earlier answers double the
// heap before it runs: wait against an endless kube-apiserver was measured
// at 194 MiB resident, next to the 200 MB ceiling TestHostilePeers holds
// every command to (CONTRIBUTING.md). A soft limit frees that garbage
// first, so the peak is about the limit plus the one answer being read
// (measured: at most 161 MiB in ten runs); it never fails an allocation.
const memoryLimit = 128 << 20

func main() {
	// client-go logs through klog to stderr ("E1128 ... request.go:1196]
	// \"Unexpected error when reading response body\""), beside the error
	// the command itself reports: the same failure said twice, in another
	// voice. The command's own error is the one voice, so klog says nothing.
	klog.SetLogger(logr.Discard())
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	os.Exit(cli.New(cli.Config{Version: version}).Main(os.Args, cli.StdIO()))
}
