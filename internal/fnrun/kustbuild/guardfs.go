package kustbuild

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// guardedRead reads a file of a user's kustomization through the capped
// reader and the YAML guard, so an alias bomb or a huge file in any
// resource, patch or kustomization fails fast instead of being expanded by
// kustomize. Files that are not YAML (a configMapGenerator's .env file, a
// certificate) are only held to the size cap (internal/intake/inputread);
// kustomize reports their syntax itself. The embedded tree is ours and not
// guarded. A refusal is also recorded as the
// build's error, because kustomize would bury it in its own wrapping.
func (f *fnFS) guardedRead(path string) ([]byte, error) {
	if f.immutable {
		return f.FileSystem.ReadFile(path)
	}
	if f.FileSystem.IsDir(path) {
		return f.FileSystem.ReadFile(path) // kustomize's own error for a directory
	}
	// Opening a FIFO waits for a writer, and a device may never end: only
	// a regular file is opened (a path not on disk is the tree's own
	// in-memory file).
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, f.recordRefusal(&SpecialFileError{Path: path, Mode: fi.Mode()})
	}
	file, err := f.FileSystem.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	// A huge file is refused before it is read, a FIFO or a device once
	// the cap is read.
	data, err := inputread.Reader(file, path, inputread.KustomizationFile)
	if errors.Is(err, inputread.ErrTooLarge) {
		return nil, f.recordRefusal(err)
	}
	if err != nil {
		return nil, err
	}
	if err := yamlguard.Check(data); err != nil && !errors.Is(err, yamlguard.ErrNotYAML) {
		return nil, f.refuse(path, err)
	}
	return data, nil
}

// SpecialFileError is a file of a kustomization that is a FIFO, a device
// or a socket: refused before it is opened.
type SpecialFileError struct {
	Path string
	Mode fs.FileMode
}

func (e *SpecialFileError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: a kustomization reads regular files only (fix: list a file of the tree in its place)",
		textsafe.Escape(e.Path), inputread.KindName(e.Mode))
}

// insideDir says whether path, its links resolved, lies in or below dir,
// its links resolved: kustomize reads no file of a kustomization outside
// its directory, so neither do the build's own looks at its entries
// (ourConfigs, the remote walk), which leave such an entry to kustomize's
// refusal. A path that does not resolve is left to kustomize too.
func insideDir(dir, path string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return true // not on disk: the tree's own in-memory file
	}
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return !filepath.IsAbs(path) || strings.HasPrefix(filepath.Clean(path), d+string(filepath.Separator))
	}
	return p == d || strings.HasPrefix(p, d+string(filepath.Separator))
}

func (f *fnFS) refuse(path string, err error) error {
	return f.recordRefusal(fmt.Errorf("%s: %w", path, err))
}

// recordRefusal keeps err as the build's error, if it is the first.
func (f *fnFS) recordRefusal(err error) error {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
	return err
}
