package hostlayout

import (
	"encoding/json"
	"fmt"
	"sort"
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
