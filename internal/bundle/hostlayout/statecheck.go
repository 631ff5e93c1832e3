package hostlayout

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
)

// CheckRel accepts a clean, relative, slash-separated path beneath the
// root: the only kind a state or journal entry may hold.
func CheckRel(p string) error {
	switch {
	case p == "" || strings.ContainsRune(p, 0) || strings.ContainsAny(p, "\n\\"):
		return errors.New("is empty or holds a NUL, newline or backslash")
	case path.IsAbs(p):
		return errors.New("is absolute; entries are relative to --root")
	case path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
		return errors.New("is not a clean path beneath the root")
	}
	return nil
}

// configurable are the placements whose path the config chooses freely.
var configurable = []string{PlacementStaticPod, PlacementKASEgressConfig, PlacementKASConfigOverride}

// Validate refuses a state render could not have written: every entry is a
// clean relative path, of a known placement, and shaped as that placement
// allows (the state itself, a certificate or cluster manifest file name).
func (s *State) Validate() error {
	seen := map[string]bool{}
	for _, f := range s.Files {
		if err := CheckRel(f.Path); err != nil {
			return fmt.Errorf("file %q %v", f.Path, err)
		}
		if seen[f.Path] {
			return fmt.Errorf("file %q is listed twice", f.Path)
		}
		seen[f.Path] = true
		if err := CheckPlacement(f); err != nil {
			return fmt.Errorf("file %q: %v", f.Path, err)
		}
	}
	for _, d := range s.Dirs {
		if err := CheckRel(d); err != nil {
			return fmt.Errorf("directory %q %v", d, err)
		}
	}
	return nil
}

// CheckPlacement refuses an entry shaped as its placement does not allow
// (a file name render never writes, a scratch name, a file in the state
// directory); the journal's entries pass it too.
func CheckPlacement(f StateFile) error {
	switch f.Placement {
	case PlacementState:
		if f.Path != StatePath {
			return fmt.Errorf("placement %s must be %s", f.Placement, StatePath)
		}
	case PlacementCertificate:
		if !slices.Contains(CertFileNames, path.Base(f.Path)) {
			return fmt.Errorf("placement %s allows only %s", f.Placement, strings.Join(CertFileNames, ", "))
		}
	case PlacementClusterManifest:
		if !slices.Contains(clusterFileNames, path.Base(f.Path)) {
			return fmt.Errorf("placement %s allows only %s", f.Placement, strings.Join(clusterFileNames, ", "))
		}
	default:
		if !slices.Contains(configurable, f.Placement) {
			return fmt.Errorf("unknown placement %q", f.Placement)
		}
	}
	if IsScratch(path.Base(f.Path)) || strings.Contains(path.Base(f.Path), StagedMark) {
		return errors.New("is one of render's scratch names")
	}
	if strings.HasPrefix(f.Path, StateDir+"/") && f.Placement != PlacementState {
		return fmt.Errorf("placement %s cannot be in render's state directory", f.Placement)
	}
	return nil
}
