package teardown

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/render"
)

// removalRank removes the static pod first so the kubelet stops the server
// before its certificates and configuration disappear.
var removalRank = map[string]int{
	render.PlacementStaticPod: 0, render.PlacementCluster: 1, render.PlacementOverride: 2,
	render.PlacementEgress: 3, render.PlacementCertificate: 4,
}

func removeFiles(root string, st *render.State, rep *Report) error {
	files := append([]render.StateFile(nil), st.Files...)
	sort.SliceStable(files, func(i, j int) bool {
		return removalRank[files[i].Placement] < removalRank[files[j].Placement]
	})
	for _, f := range files {
		abs := filepath.Join(root, filepath.FromSlash(f.Path))
		err := os.Remove(abs)
		switch {
		case err == nil:
			rep.Removed = append(rep.Removed, abs)
		case errors.Is(err, os.ErrNotExist):
			rep.AlreadyGone = append(rep.AlreadyGone, abs)
		default:
			return fmt.Errorf("remove %s: %w", abs, err)
		}
	}
	return nil
}

// removeDirs removes directories render created, deepest first, when they
// are empty; anything someone else put there keeps its directory.
func removeDirs(root string, dirs []string, keep map[string]bool, rep *Report) {
	sorted := append([]string(nil), dirs...)
	sort.Sort(sort.Reverse(sort.StringSlice(sorted)))
	for _, d := range sorted {
		if keep[d] {
			continue
		}
		abs := filepath.Join(root, filepath.FromSlash(d))
		err := os.Remove(abs)
		switch {
		case err == nil:
			rep.Removed = append(rep.Removed, abs+"/")
		case errors.Is(err, os.ErrNotExist):
		case errors.Is(err, syscall.ENOTEMPTY), errors.Is(err, syscall.EEXIST):
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("kept %s: it holds files render did not write", abs))
		default:
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("kept %s: %v", abs, err))
		}
	}
}

// finishState deletes the state file once nothing is left to do, or keeps
// a smaller one listing the cluster objects still to delete.
func finishState(root string, st *render.State, pending []render.ObjectRef, rep *Report) error {
	statePath := filepath.Join(root, filepath.FromSlash(render.StatePath))
	if len(pending) > 0 {
		rest := &render.State{Version: st.Version, Namespace: st.Namespace, ClusterObjects: pending, Dirs: st.Dirs}
		if err := render.WriteState(root, rest); err != nil {
			return err
		}
		keep := map[string]bool{}
		for d := filepath.ToSlash(filepath.Dir(render.StatePath)); d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
			keep[d] = true
		}
		removeDirs(root, st.Dirs, keep, rep)
		return nil
	}
	if err := os.Remove(statePath); err == nil {
		rep.Removed = append(rep.Removed, statePath)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove state file: %w", err)
	}
	removeDirs(root, st.Dirs, nil, rep)
	return nil
}
