package kustbuild

import (
	"errors"
	"fmt"
	"os"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/yamlguard"
)

// guardedRead reads a file of a user's kustomization through the YAML
// guard, so an alias bomb or a huge file in any resource, patch or
// kustomization fails fast instead of being expanded by kustomize. Files
// that are not YAML (a configMapGenerator's .env file, a certificate) are
// only held to the size limit; kustomize reports their syntax itself. The
// embedded tree is ours and not guarded. A refusal is also recorded as the
// build's error, because kustomize would bury it in its own wrapping.
func (f *fnFS) guardedRead(path string) ([]byte, error) {
	if f.immutable {
		return f.FileSystem.ReadFile(path)
	}
	// Stat first: a huge file is refused before it is read into memory.
	if st, err := os.Stat(path); err == nil {
		if err := yamlguard.CheckSize(st.Size()); err != nil {
			return nil, f.refuse(path, err)
		}
	}
	data, err := f.FileSystem.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := yamlguard.Check(data); err != nil && !errors.Is(err, yamlguard.ErrNotYAML) {
		return nil, f.refuse(path, err)
	}
	return data, nil
}

func (f *fnFS) refuse(path string, err error) error {
	err = fmt.Errorf("%s: %w", path, err)
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
	return err
}
