package hostlayout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// StateVersion changes only when the state format does.
const StateVersion = 1

// State is render's record of the host (docs/render.md, teardown). It holds
// no timestamps so an unchanged render produces the same bytes and is not
// rewritten.
type State struct {
	Version int         `json:"version"`
	Files   []StateFile `json:"files"`
	// Dirs render created, deepest last; teardown removes them when empty.
	Dirs           []string    `json:"dirs,omitempty"`
	Namespace      string      `json:"namespace,omitempty"`
	ClusterObjects []ObjectRef `json:"clusterObjects,omitempty"`
	// Inputs was the fingerprint of a fast path render no longer has; it is
	// never written, and read only so that a state written by an earlier
	// version still decodes (unknown fields are refused).
	Inputs string `json:"inputs,omitempty"`
	// Owner is the id in the AnnotationOwner marker of the cluster objects.
	Owner string `json:"owner,omitempty"`
}

// StateFile is one written file, relative to the root.
type StateFile struct {
	Path      string `json:"path"`
	SHA256    string `json:"sha256"`
	Placement string `json:"placement"`
	Mode      string `json:"mode"` // octal permissions, e.g. "0600"
}

// ObjectRef names a cluster object the bundle creates through cluster-bootstrap.
type ObjectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

// ErrNotRendered means the root has no state file: render has not run there.
var ErrNotRendered = errors.New("no state file")

// ReadState is the one reader of the state file: it loads it through the
// confined root and refuses a state render could not have written, since
// render and teardown act on the paths it lists. A missing file is
// ErrNotRendered, with the fix.
func ReadState(h *hostfs.Root) (*State, error) {
	p := h.Abs(StatePath)
	data, err := h.ReadFile(StatePath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s: render has not written this root (run konnectivity-bundle render --root %s, or pass the right --root)", ErrNotRendered, p, h.Dir())
	}
	if err != nil {
		return nil, fmt.Errorf("read state file: %w", err)
	}
	// The state is JSON, which YAML includes: the same limits and the
	// duplicate-key refusal apply to it as to every other input.
	err = yamlguard.Check(data)
	var s State
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(&s)
	}
	if err != nil {
		return nil, fmt.Errorf("state file %s is damaged (%v); fix: remove the files it listed by hand and delete it", p, err)
	}
	if s.Version != StateVersion {
		return nil, fmt.Errorf("state file %s has version %d, this binary understands %d", p, s.Version, StateVersion)
	}
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("state file %s: %w; render and teardown act only on paths the bundle can place (fix: restore the file render wrote, or remove the bundle's files by hand and delete it)", p, err)
	}
	return &s, nil
}

// File returns the record for a root-relative path.
func (s *State) File(rel string) (StateFile, bool) {
	for _, f := range s.Files {
		if f.Path == rel {
			return f, true
		}
	}
	return StateFile{}, false
}

// Encode is deterministic: files sorted by path, so an unchanged host
// gives the same bytes.
func (s *State) Encode() ([]byte, error) {
	if s.Files == nil {
		s.Files = []StateFile{}
	}
	sort.Slice(s.Files, func(i, j int) bool { return s.Files[i].Path < s.Files[j].Path })
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	return append(data, '\n'), nil
}

// WriteState replaces the state file under the root atomically (teardown
// keeps a smaller one while cluster objects remain to be deleted).
func WriteState(h *hostfs.Root, s *State) error {
	data, err := s.Encode()
	if err != nil {
		return err
	}
	tmp := TempName(StatePath)
	err = h.WriteNew(tmp, data, 0o644)
	if err == nil {
		err = h.Sync(tmp)
	}
	if err == nil {
		err = h.Rename(tmp, StatePath)
	}
	if err != nil {
		_ = h.Remove(tmp)
		return fmt.Errorf("write state file: %w", err)
	}
	return h.Sync(StateDir)
}
