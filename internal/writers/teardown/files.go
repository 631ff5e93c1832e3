package teardown

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
)

// removalRank removes the static pod first so the kubelet stops the server
// before its certificates and configuration disappear.
var removalRank = map[string]int{
	hostlayout.PlacementStaticPod: 0, hostlayout.PlacementClusterManifest: 1, hostlayout.PlacementKASConfigOverride: 2,
	hostlayout.PlacementKASEgressConfig: 3, hostlayout.PlacementCertificate: 4,
}

// removeFiles removes every recorded file. A symbolic link or special file
// where render wrote a regular file is someone else's and is kept: every
// path is checked before the first removal (checkFiles), so a planted one
// stops teardown with the host as it was, not with the static pod gone.
func removeFiles(h *hostfs.Root, st *hostlayout.State, rep *Report) error {
	files := append([]hostlayout.StateFile(nil), st.Files...)
	sort.SliceStable(files, func(i, j int) bool {
		return removalRank[files[i].Placement] < removalRank[files[j].Placement]
	})
	if err := checkFiles(h, files); err != nil {
		return err
	}
	for _, f := range files {
		abs := h.Abs(f.Path)
		_, err := h.Regular(f.Path)
		if err == nil {
			err = h.Remove(f.Path)
		}
		switch {
		case err == nil:
			rep.Removed = append(rep.Removed, abs)
		case errors.Is(err, fs.ErrNotExist):
			rep.AlreadyGone = append(rep.AlreadyGone, abs)
		default:
			return removeError(h, f, err)
		}
	}
	return nil
}

// checkFiles refuses the first recorded path that holds anything but a
// regular file (or nothing), before any is removed.
func checkFiles(h *hostfs.Root, files []hostlayout.StateFile) error {
	for _, f := range files {
		if _, err := h.Regular(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removeError(h, f, err)
		}
	}
	return nil
}

// removeError is err as teardown says it: hostfs's refusal names the path
// itself; any other error is given it.
func removeError(h *hostfs.Root, f hostlayout.StateFile, err error) error {
	var unsafe *hostfs.UnsafeError
	if errors.As(err, &unsafe) {
		return err
	}
	return fmt.Errorf("remove %s: %w", h.Abs(f.Path), err)
}

// removeDirs removes directories render created, deepest first, when they
// are empty; anything someone else put there keeps its directory. The state
// directory's chain is left to statefile.Remove.
func removeDirs(h *hostfs.Root, dirs []string, rep *Report) {
	sorted := append([]string(nil), dirs...)
	sort.Sort(sort.Reverse(sort.StringSlice(sorted)))
	stateDir := hostlayout.StateDir
	for _, d := range sorted {
		if d == stateDir || strings.HasPrefix(stateDir, d+"/") {
			continue
		}
		abs := h.Abs(d)
		err := h.Remove(d)
		switch {
		case err == nil:
			rep.Removed = append(rep.Removed, abs+"/")
		case errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, syscall.ENOTEMPTY), errors.Is(err, syscall.EEXIST):
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("kept %s: it holds files render did not write", abs))
		default:
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("kept %s: %v", abs, err))
		}
	}
}

// finishState deletes the state file (and the directories render made for
// it) once nothing is left to do, or keeps a smaller one listing the
// cluster objects still to delete.
func finishState(h *hostfs.Root, st *hostlayout.State, pending []hostlayout.ObjectRef, rep *Report) error {
	removeDirs(h, st.Dirs, rep)
	if len(pending) > 0 {
		rest := &hostlayout.State{Version: st.Version, Namespace: st.Namespace, ClusterObjects: pending, Dirs: st.Dirs}
		return statefile.Write(h, rest)
	}
	removed, err := statefile.Remove(h, st.Dirs)
	if err != nil {
		return fmt.Errorf("remove state file: %w", err)
	}
	rep.Removed = append(rep.Removed, removed...)
	return nil
}
