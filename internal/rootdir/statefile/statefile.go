// Package statefile is the one home of render's state file on disk
// (hostlayout.StatePath): it reads it, refusing a state render could not
// have written, writes it atomically, and removes it with the directory
// chain render created for it, which the transaction's journal shares
// (hosttxn). The state's type and its validation are names and rules,
// not file operations: they live in internal/bundle/hostlayout.
package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// ErrNotRendered means the root has no state file: render has not run there.
var ErrNotRendered = errors.New("no state file")

// Read is the one reader of the state file: it loads it through the
// confined root and refuses a state render could not have written, since
// render and teardown act on the paths it lists. A missing file is
// ErrNotRendered, with the fix.
func Read(h *hostfs.Root) (*hostlayout.State, error) {
	p := h.Abs(hostlayout.StatePath)
	data, err := h.ReadFile(hostlayout.StatePath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s: render has not written this root (run konnectivity-bundle render --root %s, or pass the right --root)", ErrNotRendered, p, h.Dir())
	}
	if err != nil {
		return nil, fmt.Errorf("read state file: %w", err)
	}
	// The state is JSON, which YAML includes: the same limits and the
	// duplicate-key refusal apply to it as to every other input.
	err = yamlguard.Check(data)
	var s hostlayout.State
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(&s)
	}
	if err != nil {
		return nil, fmt.Errorf("state file %s is damaged (%v); fix: remove the files it listed by hand and delete it", p, err)
	}
	if s.Version != hostlayout.StateVersion {
		return nil, fmt.Errorf("state file %s has version %d, this binary understands %d", p, s.Version, hostlayout.StateVersion)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("state file %s: %w; render and teardown act only on paths the bundle can place (fix: restore the file render wrote, or remove the bundle's files by hand and delete it)", p, err)
	}
	return &s, nil
}

// Write replaces the state file under the root atomically (teardown
// keeps a smaller one while cluster objects remain to be deleted).
func Write(h *hostfs.Root, s *hostlayout.State) error {
	data, err := s.Encode()
	if err != nil {
		return err
	}
	if err := h.Replace(hostlayout.TempName(hostlayout.StatePath), hostlayout.StatePath, data, 0o644); err != nil {
		return fmt.Errorf("write state file: %w", err)
	}
	return h.Sync(hostlayout.StateDir)
}
