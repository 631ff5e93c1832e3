package render

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// planDisable removes what an earlier render wrote when the overlay now
// produces nothing (bootstrap-in-place). The state keeps the directories
// and cluster objects so teardown can still remove them.
func planDisable(h *hostfs.Root, prev *hostlayout.State, rep *Report) ([]change, error) {
	if len(prev.Files) == 0 {
		return nil, nil
	}
	changes, err := planRemovals(h, prev, nil)
	if err != nil {
		return nil, err
	}
	st := &hostlayout.State{Version: hostlayout.StateVersion, Dirs: prev.Dirs, Namespace: prev.Namespace, ClusterObjects: prev.ClusterObjects}
	data, err := st.Encode()
	if err != nil {
		return nil, err
	}
	sc := change{desiredFile: desiredFile{rel: hostlayout.StatePath, data: data, mode: 0o644, placement: hostlayout.PlacementState}, abs: h.Abs(hostlayout.StatePath)}
	if sc.action, sc.old, err = compareDisk(h, sc.desiredFile); err != nil {
		return nil, err
	}
	changes = append([]change{sc}, changes...)
	for _, c := range changes {
		rep.Files = append(rep.Files, FileReport{Path: c.abs, RelPath: c.rel, Placement: c.placement, Action: c.action, Size: len(c.data)})
	}
	return changes, nil
}
