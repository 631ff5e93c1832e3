// Package bundlesource resolves the bundle argument of check, diff and
// ports into a YAML stream: - for stdin, a host root render wrote, a bundle
// file, a kustomization directory (built) or an embedded overlay's name
// (built). Every such argument is opened once and resolved here, so the
// commands agree on what an argument names and say the same when it names
// nothing.
package bundlesource

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
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
)

// Source is one bundle argument read into a YAML stream, and how output
// names it ("stdin", the path, "overlay NAME", "the host root DIR").
type Source struct {
	// Label names the bundle in output.
	Label string
	// Stream is the bundle's YAML.
	Stream []byte
	// Read is a bundle FILE or stdin, read as it is: nothing built it, so
	// nothing refused its unknown fields yet (RefuseUnknownFields).
	Read bool
	// Root is a host root render wrote.
	Root bool
	root string // its path, for RenderedCertFiles
}

// Stdin is what an argument of - reads: the command's standard input, and
// where the command says, before it reads a terminal, that it does, so it
// never waits silently for typing.
type Stdin struct {
	// Reader is the command's standard input.
	Reader io.Reader
	// Notes takes the TerminalNote (the command's stderr); nil says nothing.
	Notes io.Writer
	// Command names the command in the note.
	Command string
}

// Load resolves one bundle argument for diff (and ports): - is stdin; a
// directory holding render's state file is a rendered host root, read as
// the files are on disk now; then a bundle file, a kustomization
// directory (built) or an overlay name (built). Only builds use opts.
func Load(in Stdin, target string, opts kustbuild.Options) (Source, error) {
	src, dir, err := readArg(in, target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return overlayArg(target, opts)
	case err != nil || !dir:
		return src, err
	case renderedroot.IsRoot(target):
		b, err := renderedroot.Stream(target)
		if err != nil {
			return Source{}, err
		}
		return Source{Label: "the host root " + target, Stream: b, Root: true, root: target}, nil
	}
	return buildDir(target, opts)
}

// readArg opens a bundle argument once and decides what it is from the
// open file, never by a second look at the path: a FIFO opened twice waits
// for a writer that has gone. A directory is reported (dir) and nothing is
// read; a file, FIFO or device, or - for stdin, is read to its end through
// the one bounded reader and the YAML guard. A path that is not there is
// the open's error (fs.ErrNotExist): it may name an overlay.
func readArg(in Stdin, arg string) (src Source, dir bool, err error) {
	name := arg
	if arg == "-" {
		name = "stdin"
		if in.Notes != nil && inputread.IsTerminal(in.Reader) {
			// a note: stderr refusing it changes nothing
			_ = output.Write(in.Notes, output.Text, TerminalNote{Command: in.Command})
		}
	}
	b, err := inputread.Read(arg, in.Reader, inputread.Bundle)
	switch {
	case errors.Is(err, inputread.ErrDirectory):
		return Source{}, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return Source{}, false, err
	case err == nil:
		err = yamlguard.CheckInput(name, b)
	}
	if err != nil {
		if arg != "-" {
			err = fmt.Errorf("read bundle file: %w", err)
		}
		return Source{}, false, err
	}
	return Source{Label: name, Stream: b, Read: true}, false, nil
}

// buildDir builds a kustomization directory that is not a host root.
func buildDir(dir string, opts kustbuild.Options) (Source, error) {
	if !hasKustomization(dir) {
		// Most often a host root that render has not written yet
		// (`ports /`): say so, as status does, instead of kustomize's
		// "unable to find one of 'kustomization.yaml'".
		// The path is escaped here: a newline typed in it would start a line.
		d := textsafe.Value(dir)
		return Source{}, fmt.Errorf("%s: nothing rendered here (no %s) and no kustomization to build (no kustomization.yaml): run konnectivity-bundle render --root %s first, or give a bundle file, a kustomization directory or an overlay name", d, hostlayout.StatePath, d)
	}
	b, err := kustbuild.Build(dir, opts)
	if err != nil {
		return Source{}, err
	}
	return Source{Label: dir, Stream: b}, nil
}

// overlayArg resolves an argument that names no file or directory: an
// overlay, or an error listing them.
func overlayArg(arg string, opts kustbuild.Options) (Source, error) {
	if !slices.Contains(kustbuild.Overlays(), arg) {
		return Source{}, fmt.Errorf("%q is not a file, a directory or an overlay (%s); give a bundle file, a kustomization directory, an overlay name or -", arg, strings.Join(kustbuild.Overlays(), ", "))
	}
	return Overlay(arg, opts)
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

// Overlay builds an embedded overlay by name (diff --overlays).
func Overlay(name string, opts kustbuild.Options) (Source, error) {
	if !slices.Contains(kustbuild.Overlays(), name) {
		return Source{}, fmt.Errorf("%q is not an overlay; overlays: %s", name, strings.Join(kustbuild.Overlays(), ", "))
	}
	b, err := kustbuild.BuildOverlay(name, opts)
	if err != nil {
		return Source{}, err
	}
	return Source{Label: "overlay " + name, Stream: b}, nil
}
