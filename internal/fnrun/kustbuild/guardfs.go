package kustbuild

import (
	"errors"
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
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
