// Package gctune sets the garbage collector for konnectivity-bundle's short
// runs. Its init turns collection off while the linked libraries initialise
// (the heap then stays under 5 MB, yet the collector's first cycle cost
// every process, `render` and each `fn` run included, several
// milliseconds); main calls Tune first thing to turn it back on. An
// explicit GOGC or GOMEMLIMIT wins.
//
// It runs before the costly initialisers because the linker runs each
// package's initialisers as soon as its imports are done, picking the
// lexically first ready package (cmd/link, inittask.go), and this one needs
// only os and runtime/debug: it comes after about 140 small packages and
// before zlint's public suffix list, cfssl, client-go and kustomize
// (TestInitOrder in cmd/konnectivity-bundle; GODEBUG=inittrace=1 shows it).
package gctune

import (
	"os"
	"runtime/debug"
)

// memoryLimit bounds the heap even while collection is off: past it the
// collector runs regardless.
const memoryLimit = 512 << 20

func init() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(-1)
	}
}

// Tune turns collection back on for main: every command is a short run
// that allocates a few tens of MB, mostly garbage from YAML decoding;
// collecting at 4x the live heap instead of 2x saves about a third of the
// CPU time of a render.
func Tune() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}
