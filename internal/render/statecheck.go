package render

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
)

// checkRel accepts a clean, relative, slash-separated path beneath the root.
func checkRel(p string) error {
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

// clusterFiles are the only names the generator gives cluster manifests.
var clusterFiles = []string{bundlev1.NamespaceFileName, bundlev1.DaemonSetFileName, bundlev1.AgentSecretFileName}

// configurable are the placements whose path the config chooses freely.
var configurable = []string{PlacementStaticPod, PlacementEgress, PlacementOverride}

// validate refuses a state render could not have written: every entry is a
// clean relative path, of a known placement, and shaped as that placement
// allows (the state itself, a certificate or cluster manifest file name).
func (s *State) validate() error {
	seen := map[string]bool{}
	for _, f := range s.Files {
		if err := checkRel(f.Path); err != nil {
			return fmt.Errorf("file %q %v", f.Path, err)
		}
		if seen[f.Path] {
			return fmt.Errorf("file %q is listed twice", f.Path)
		}
		seen[f.Path] = true
		if err := checkPlacement(f); err != nil {
			return fmt.Errorf("file %q: %v", f.Path, err)
		}
	}
	for _, d := range s.Dirs {
		if err := checkRel(d); err != nil {
			return fmt.Errorf("directory %q %v", d, err)
		}
	}
	return nil
}

func checkPlacement(f StateFile) error {
	switch f.Placement {
	case PlacementState:
		if f.Path != StatePath {
			return fmt.Errorf("placement %s must be %s", f.Placement, StatePath)
		}
	case PlacementCertificate:
		if !slices.Contains(certFileNames, path.Base(f.Path)) {
			return fmt.Errorf("placement %s allows only %s", f.Placement, strings.Join(certFileNames, ", "))
		}
	case PlacementCluster:
		if !slices.Contains(clusterFiles, path.Base(f.Path)) {
			return fmt.Errorf("placement %s allows only %s", f.Placement, strings.Join(clusterFiles, ", "))
		}
	default:
		if !slices.Contains(configurable, f.Placement) {
			return fmt.Errorf("unknown placement %q", f.Placement)
		}
	}
	if hostfs.IsScratch(path.Base(f.Path)) || strings.Contains(path.Base(f.Path), stagedMark) {
		return errors.New("is one of render's scratch names")
	}
	if strings.HasPrefix(f.Path, stateDir+"/") && f.Placement != PlacementState {
		return fmt.Errorf("placement %s cannot be in render's state directory", f.Placement)
	}
	return nil
}
