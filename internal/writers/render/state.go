package render

import (
	"errors"
	"fmt"
	"sort"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
)

// The state render records: read through statefile, the one home of the
// state file on disk; the new one is one more change of render's
// transaction, so it lands with the files it lists or not at all.

// previousState is the state an earlier run left; none at all reads as an
// empty state, so a first render and a re-run take one path.
func previousState(h *hostfs.Root) (*hostlayout.State, error) {
	st, err := statefile.Read(h)
	if errors.Is(err, statefile.ErrNotRendered) {
		return &hostlayout.State{Version: hostlayout.StateVersion}, nil
	}
	return st, err
}

// withState adds the state file to the plan and returns the directories to
// create. The state lists the directories too, so its own directory must be
// known before its bytes are.
func withState(root string, changes []change, prev *hostlayout.State, objs []*bundlemodel.Object, certDir string) ([]change, []dirSpec, error) {
	h, err := hostfs.Open(root)
	if err != nil {
		return nil, nil, err
	}
	defer h.Close()
	stateAbs := h.Abs(hostlayout.StatePath)
	placeholder := change{desiredFile: desiredFile{rel: hostlayout.StatePath, placement: hostlayout.PlacementState}, abs: stateAbs, action: hosttxn.Create}
	if ok, err := h.Exists(hostlayout.StatePath); err != nil {
		return nil, nil, inspectError(h, hostlayout.StatePath, err)
	} else if ok {
		placeholder.action = hosttxn.Update
	}
	dirs, err := missingDirs(h, append([]change{placeholder}, changes...), certDir)
	if err != nil {
		return nil, nil, err
	}
	st := newState(h, changes, prev, dirs, objs)
	data, err := st.Encode()
	if err != nil {
		return nil, nil, err
	}
	sc := change{desiredFile: desiredFile{rel: hostlayout.StatePath, data: data, mode: 0o644, placement: hostlayout.PlacementState}, abs: stateAbs}
	if sc.action, sc.old, err = compareDisk(h, sc.desiredFile); err != nil {
		return nil, nil, err
	}
	return append([]change{sc}, changes...), dirs, nil
}

// newState records every file kept or written, every directory render ever
// created that still exists, and the cluster objects.
func newState(h *hostfs.Root, changes []change, prev *hostlayout.State, dirs []dirSpec, objs []*bundlemodel.Object) *hostlayout.State {
	s := &hostlayout.State{Version: hostlayout.StateVersion, Owner: prev.Owner}
	for _, c := range changes {
		if c.action != hosttxn.Remove {
			s.Files = append(s.Files, hostlayout.StateFile{Path: c.rel, SHA256: hosttxn.SHA256(c.data), Placement: c.placement, Mode: fmt.Sprintf("%04o", c.mode.Perm())})
		}
	}
	seen := map[string]bool{}
	for _, d := range prev.Dirs {
		if ok, _ := h.Exists(d); ok && !seen[d] {
			seen[d] = true
			s.Dirs = append(s.Dirs, d)
		}
	}
	for _, d := range dirs {
		if !seen[d.rel] {
			seen[d.rel] = true
			s.Dirs = append(s.Dirs, d.rel)
		}
	}
	sort.Strings(s.Dirs)
	for _, o := range objs {
		if o.Placement() != hostlayout.PlacementClusterManifest {
			continue
		}
		s.ClusterObjects = append(s.ClusterObjects, hostlayout.ObjectRef{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name})
		if o.Kind == "Namespace" && o.APIVersion == "v1" {
			s.Namespace = o.Name
		}
	}
	return s
}
