package bundlesource

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
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
			textsafe.Value(target), hostlayout.StatePath)
	default:
		b, err := kustbuild.Build(target, build) // its errors name the directory it built
		return Source{Label: target, Stream: b}, err
	}
	if err != nil {
		return Source{}, fmt.Errorf("reading bundle: %w", err)
	}
	return src, nil
}

// RenderedCertFiles reads the certificate directory of a rendered host
// root, confined to the root, so check verifies SANs and signers there
// without --cert-dir; nil for any other bundle. The root is the one
// reading the bundle found: the argument is not looked at again (a FIFO
// opened twice waits for a writer that has gone).
func (s Source) RenderedCertFiles() (map[string][]byte, error) {
	if !s.Root {
		return nil, nil
	}
	r, err := renderedroot.Load(s.root)
	if err != nil || r.CertDir == "" {
		return nil, nil // reading the bundle has reported a damaged root already
	}
	return check.ReadCertFiles(func(name string) ([]byte, error) {
		return r.ReadFile(filepath.Join(r.CertDir, name))
	})
}
