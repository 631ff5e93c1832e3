package cli

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/bundlesource"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
)

// How the commands that take a bundle name it, the same in each: an
// embedded overlay by name, a kustomization directory, and, for the
// commands that read a bundle rather than build one, a bundle file, a host
// root render wrote or - for stdin. internal/fnrun/bundlesource resolves
// every such argument.
const (
	// buildArgs is the argument of build and render, which build.
	buildArgs = "[OVERLAY|DIR]"
	// sourceArgs is the argument of check and ports, and each of diff's.
	sourceArgs = "[OVERLAY|DIR|FILE|ROOT|-]"
)

// overlayArg is the one OVERLAY or DIR of build or render; none is the
// default overlay ("" to the build). An empty word is refused: it is an
// unset variable (`render "$OVERLAY"`), not a choice of the default.
func overlayArg(command string, args []string) (string, error) {
	switch {
	case len(args) == 0:
		return "", nil
	case len(args) == 1 && args[0] == "":
		return "", usagef("the OVERLAY or DIR argument is empty: name an overlay or a directory, or give none for the default overlay, %s", kustbuild.DefaultOverlay)
	case len(args) == 1:
		return args[0], nil
	}
	return "", usagef("%s takes at most one OVERLAY or DIR, got %d", command, len(args))
}

// stdinOf is what a bundle argument of - reads for command: its stdin,
// and its stderr for the note said before a terminal is read.
func stdinOf(io IO, command string) bundlesource.Stdin {
	return bundlesource.Stdin{Reader: io.Stdin, Notes: io.Stderr, Command: command}
}
