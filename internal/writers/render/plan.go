package render

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// desiredFile is one file as render wants it on the host.
type desiredFile struct {
	rel       string // relative to the root, slash-separated
	data      []byte
	mode      fs.FileMode
	placement string
}

// change is a desired file compared with the disk.
type change struct {
	desiredFile
	abs    string
	action hosttxn.Action
	old    string // sha256 of the file on disk; "" when absent
}

// txnChanges is the plan as the host transaction takes it.
func txnChanges(changes []change) []hosttxn.Change {
	out := make([]hosttxn.Change, 0, len(changes))
	for _, c := range changes {
		out = append(out, hosttxn.Change{Rel: c.rel, Placement: c.placement, Data: c.data, Mode: c.mode, Action: c.action, Old: c.old})
	}
	return out
}

// commitRank orders renames so that nothing points at a missing file: the
// state record first (teardown can then clean up any crash), configuration
// and certificates next, and the static pod last because the kubelet starts
// the server as soon as its manifest appears.
var commitRank = map[string]int{
	hostlayout.PlacementState: 0, hostlayout.PlacementCertificate: 1, hostlayout.PlacementKASEgressConfig: 2,
	hostlayout.PlacementKASConfigOverride: 3, hostlayout.PlacementClusterManifest: 4, hostlayout.PlacementStaticPod: 5,
}

// planChanges compares every desired file with the disk. Files recorded in
// prev but no longer wanted are removed. An existing file that no earlier
// render recorded is refused, even with the same bytes: adopting it would
// let teardown delete a stranger's file later.
func planChanges(root string, want []desiredFile, prev *hostlayout.State, force bool) ([]change, error) {
	h, err := hostfs.Open(root)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	var changes []change
	var refused []string
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w.rel] = true
		c := change{desiredFile: w, abs: h.Abs(w.rel)}
		if c.action, c.old, err = compareDisk(h, w); err != nil {
			return nil, err
		}
		_, ours := prev.File(w.rel)
		if c.action != hosttxn.Create && !ours && !force && w.placement != hostlayout.PlacementState {
			refused = append(refused, c.abs)
		}
		changes = append(changes, c)
	}
	if len(refused) > 0 {
		return nil, &RefusedError{Paths: refused}
	}
	removals, err := planRemovals(h, prev, wanted)
	if err != nil {
		return nil, err
	}
	changes = append(changes, removals...)
	sort.SliceStable(changes, func(i, j int) bool {
		ri, rj := commitRank[changes[i].placement], commitRank[changes[j].placement]
		if ri != rj {
			return ri < rj
		}
		return changes[i].rel < changes[j].rel
	})
	return changes, nil
}

// planRemovals removes every recorded file that is no longer wanted.
func planRemovals(h *hostfs.Root, prev *hostlayout.State, wanted map[string]bool) ([]change, error) {
	var out []change
	for _, f := range prev.Files {
		if wanted[f.Path] || f.Placement == hostlayout.PlacementState {
			continue
		}
		data, err := h.ReadFile(f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, inspectError(h, f.Path, err)
		}
		out = append(out, change{desiredFile: desiredFile{rel: f.Path, placement: f.Placement}, abs: h.Abs(f.Path), action: hosttxn.Remove, old: hosttxn.SHA256(data)})
	}
	return out, nil
}

// compareDisk decides create, update or unchanged and hashes what is there.
func compareDisk(h *hostfs.Root, w desiredFile) (hosttxn.Action, string, error) {
	action, old, err := hosttxn.Compare(h, w.rel, w.data, w.mode)
	switch {
	case errors.Is(err, hosttxn.ErrIsDir):
		return "", "", inputErrorf("destination "+textsafe.Escape(h.Abs(w.rel)), "remove the directory", "is a directory, render needs to write a file there")
	case err != nil:
		return "", "", inspectError(h, w.rel, err)
	}
	return action, old, nil
}

// inspectError makes a symlink or special file in the way bad input (exit 3).
func inspectError(h *hostfs.Root, rel string, err error) error {
	var unsafe *hostfs.UnsafeError
	if errors.As(err, &unsafe) {
		return &InputError{Field: "destination " + textsafe.Escape(unsafe.Path), Message: unsafe.Predicate()}
	}
	return fmt.Errorf("inspect %s: %w", h.Abs(rel), err)
}
