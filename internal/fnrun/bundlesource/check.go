package bundlesource

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
)

// ForCheck is check's Load: the same arguments, but a directory that is
// not a rendered root is built here so that its messages say what check
// could not check, and a path that is not there is said as it is.
func ForCheck(in Stdin, target string, build kustbuild.Options) (Source, error) {
	src, dir, err := readArg(in, target)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !strings.ContainsRune(target, filepath.Separator):
		// A bare word may be an overlay's name, which overlayArg
		// resolves or lists; a path that is not there is said as it is.
		src, err = overlayArg(target, build)
	case err != nil || !dir:
	case renderedroot.IsRoot(target):
		src, err = Load(in, target, build)
	case !hasKustomization(target):
		return Source{}, fmt.Errorf("%s: nothing to check here: no kustomization to build (no kustomization.yaml) and nothing render wrote (no %s); give a bundle file, a kustomization directory, or a root render wrote",
			target, hostlayout.StatePath)
	default:
		b, err := kustbuild.Build(target, build) // its errors name the directory it built
		return Source{Label: target, Stream: b}, err
	}
	if err != nil {
		return Source{}, fmt.Errorf("reading bundle: %w", err)
	}
	return src, nil
}
