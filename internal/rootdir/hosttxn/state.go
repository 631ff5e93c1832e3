package hosttxn

import (
	"fmt"
	"path"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// dropJournal removes the journal, with the state directory chain when the
// transaction created it: renamed to a hidden name first, so a crash leaves
// a name the next run removes rather than an unrecorded directory.
func dropJournal(h *hostfs.Root, created []string) error {
	top := createdChain(created)
	if top == "" {
		if err := ignoreNotExist(h.Remove(hostlayout.JournalPath)); err != nil {
			return fmt.Errorf("remove the journal: %w", err)
		}
		return h.Sync(hostlayout.StateDir)
	}
	return dropChain(h, top)
}

// dropChain removes a directory chain render created for its state, when
// it holds nothing but render's own files.
func dropChain(h *hostfs.Root, top string) error {
	if !ownsOnly(h, top) {
		if err := ignoreNotExist(h.Remove(hostlayout.JournalPath)); err != nil {
			return err
		}
		return fmt.Errorf("kept %s: it holds files render did not write", h.Abs(top))
	}
	stage := stagedName(top)
	if err := h.Rename(top, stage); err != nil {
		return fmt.Errorf("remove %s: %w", h.Abs(top), err)
	}
	if err := h.RemoveAll(stage); err != nil {
		return fmt.Errorf("remove %s: %w", h.Abs(stage), err)
	}
	return h.Sync(parentOf(top))
}

// ownsOnly reports whether dir holds only the state chain and render's files.
func ownsOnly(h *hostfs.Root, dir string) bool {
	names, err := h.ReadDirNames(dir)
	if err != nil {
		return false
	}
	for _, n := range names {
		p := path.Join(dir, n)
		switch {
		case inStateChain(p):
			if !ownsOnly(h, p) {
				return false
			}
		case p == hostlayout.StatePath || p == hostlayout.JournalPath || (path.Dir(p) == hostlayout.StateDir && hostlayout.IsScratch(n)):
		default:
			return false
		}
	}
	return true
}

// verifyUndone checks the host is as the journal says it was.
// RemoveState deletes the state file and, when render created them (dirs is
// the state's Dirs), the state directory and its parents, without a crash
// window that could leave an unrecorded directory. It returns what it
// removed, as absolute paths (directories end in "/").
func RemoveState(h *hostfs.Root, dirs []string) ([]string, error) {
	top := createdChain(dirs)
	removed := []string{h.Abs(hostlayout.StatePath)}
	if top == "" || !ownsOnly(h, top) {
		err := ignoreNotExist(h.Remove(hostlayout.StatePath))
		if err == nil {
			err = h.Sync(hostlayout.StateDir)
		}
		return removed, err
	}
	if err := dropChain(h, top); err != nil {
		return nil, err
	}
	for d := hostlayout.StateDir; ; d = path.Dir(d) {
		removed = append(removed, h.Abs(d)+"/")
		if d == top {
			return removed, nil
		}
	}
}

// createdChain is the shallowest directory of the state directory's chain
// that dirs (created by a transaction or recorded by render) list, or "".
func createdChain(dirs []string) string {
	top := ""
	for _, d := range dirs {
		if inStateChain(d) && (top == "" || len(d) < len(top)) {
			top = d
		}
	}
	return top
}
