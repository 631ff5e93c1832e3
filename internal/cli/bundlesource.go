package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
)

// How the commands that take a bundle name it, the same in each: an
// embedded overlay by name, a kustomization directory, and, for the
// commands that read a bundle rather than build one, a bundle file, a host
// root render wrote or - for stdin. Every such argument is resolved here.
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

// bundleSource is one bundle argument read into a YAML stream, and how
// output names it ("stdin", the path, "overlay NAME", "the host root DIR").
type bundleSource struct {
	Label  string
	Stream []byte
	// Read is a bundle FILE or stdin, read as it is: nothing built it, so
	// nothing refused its unknown fields yet (strictsource.go).
	Read bool
	// Root is a host root render wrote.
	Root bool
}

// loadSource resolves one bundle argument for check, diff and ports: - is
// stdin; a directory holding render's state file is a rendered host root,
// read as the files are on disk now; then a bundle file, a kustomization
// directory (built) or an overlay name (built). Only builds use opts.
func loadSource(io IO, target string, opts kustbuild.Options) (bundleSource, error) {
	src, dir, err := readSourceArg(target, io.Stdin)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return loadOverlayArg(target, opts)
	case err != nil || !dir:
		return src, err
	case renderedroot.IsRoot(target):
		b, err := renderedroot.Stream(target)
		if err != nil {
			return bundleSource{}, err
		}
		return bundleSource{Label: "the host root " + target, Stream: b, Root: true}, nil
	}
	return buildSourceDir(target, opts)
}

// readSourceArg opens a bundle argument once and decides what it is from
// the open file, never by a second look at the path: a FIFO opened twice
// waits for a writer that has gone. A directory is reported (dir) and
// nothing is read; a file, FIFO or device, or - for stdin, is read to its
// end through the one bounded reader and the YAML guard. A path that is
// not there is the open's error (fs.ErrNotExist): it may name an overlay.
func readSourceArg(arg string, stdin io.Reader) (src bundleSource, dir bool, err error) {
	name := arg
	if arg == "-" {
		name = "stdin"
	}
	b, err := inputread.Read(arg, stdin, inputread.Bundle)
	switch {
	case errors.Is(err, inputread.ErrDirectory):
		return bundleSource{}, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return bundleSource{}, false, err
	case err == nil:
		err = yamlguard.CheckInput(name, b)
	}
	if err != nil {
		if arg != "-" {
			err = fmt.Errorf("read bundle file: %w", err)
		}
		return bundleSource{}, false, err
	}
	return bundleSource{Label: name, Stream: b, Read: true}, false, nil
}

// buildSourceDir builds a kustomization directory that is not a host root.
func buildSourceDir(dir string, opts kustbuild.Options) (bundleSource, error) {
	if !hasKustomization(dir) {
		// Most often a host root that render has not written yet
		// (`ports /`): say so, as status does, instead of kustomize's
		// "unable to find one of 'kustomization.yaml'".
		return bundleSource{}, fmt.Errorf("%s: nothing rendered here (no %s) and no kustomization to build (no kustomization.yaml): run konnectivity-bundle render --root %s first, or give a bundle file, a kustomization directory or an overlay name", dir, hostlayout.StatePath, dir)
	}
	b, err := kustbuild.Build(dir, opts)
	if err != nil {
		return bundleSource{}, err
	}
	return bundleSource{Label: dir, Stream: b}, nil
}

// loadOverlayArg resolves an argument that names no file or directory: an
// overlay, or an error listing them.
func loadOverlayArg(arg string, opts kustbuild.Options) (bundleSource, error) {
	if !slices.Contains(kustbuild.Overlays(), arg) {
		return bundleSource{}, fmt.Errorf("%q is not a file, a directory or an overlay (%s); give a bundle file, a kustomization directory, an overlay name or -", arg, strings.Join(kustbuild.Overlays(), ", "))
	}
	return loadOverlay(arg, opts)
}

// hasKustomization says whether dir holds a file kustomize builds from
// (kustomize accepts these three names).
func hasKustomization(dir string) bool {
	for _, name := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && !st.IsDir() {
			return true
		}
	}
	return false
}

// loadOverlay builds an embedded overlay by name (diff --overlays).
func loadOverlay(name string, opts kustbuild.Options) (bundleSource, error) {
	if !slices.Contains(kustbuild.Overlays(), name) {
		return bundleSource{}, fmt.Errorf("%q is not an overlay; overlays: %s", name, strings.Join(kustbuild.Overlays(), ", "))
	}
	b, err := kustbuild.BuildOverlay(name, opts)
	if err != nil {
		return bundleSource{}, err
	}
	return bundleSource{Label: "overlay " + name, Stream: b}, nil
}

// readBundle is check's loadSource: the same arguments, but a directory
// that is not a rendered root is built here so that its messages say what
// check could not check.
func readBundle(io IO, target string, build kustbuild.Options) (bundleSource, error) {
	src, dir, err := readSourceArg(target, io.Stdin)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !strings.ContainsRune(target, filepath.Separator):
		// A bare word may be an overlay's name, which loadOverlayArg
		// resolves or lists; a path that is not there is said as it is.
		src, err = loadOverlayArg(target, build)
	case err != nil || !dir:
	case renderedroot.IsRoot(target):
		src, err = loadSource(io, target, build)
	case !hasKustomization(target):
		return bundleSource{}, fmt.Errorf("%s: nothing to check here: no kustomization to build (no kustomization.yaml) and nothing render wrote (no %s); give a bundle file, a kustomization directory, or a root render wrote",
			target, hostlayout.StatePath)
	default:
		b, err := kustbuild.Build(target, build) // its errors name the directory it built
		return bundleSource{Label: target, Stream: b}, err
	}
	if err != nil {
		return bundleSource{}, fmt.Errorf("reading bundle: %w", err)
	}
	return src, nil
}
