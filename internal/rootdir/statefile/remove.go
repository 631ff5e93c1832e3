package statefile

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// Remove deletes the state file and, when render created them (dirs is
// the state's Dirs), the state directory and its parents, without a crash
// window that could leave an unrecorded directory. It returns what it
// removed, as absolute paths (directories end in "/").
func Remove(h *hostfs.Root, dirs []string) ([]string, error) {
	top := CreatedChain(dirs)
	removed := []string{h.Abs(hostlayout.StatePath)}
	if top == "" || !ownsOnly(h, top) {
		err := ignoreNotExist(h.Remove(hostlayout.StatePath))
		if err == nil {
			err = h.Sync(hostlayout.StateDir)
		}
		return removed, err
	}
	if err := DropChain(h, top); err != nil {
		return nil, err
	}
	for d := hostlayout.StateDir; ; d = path.Dir(d) {
		removed = append(removed, h.Abs(d)+"/")
		if d == top {
			return removed, nil
		}
	}
}

// InChain reports whether dir is the state directory or one of its parents.
func InChain(dir string) bool {
	return dir == hostlayout.StateDir || strings.HasPrefix(hostlayout.StateDir, dir+"/")
}

// CreatedChain is the shallowest directory of the state directory's chain
// that dirs (created by a transaction or recorded by render) list, or "".
func CreatedChain(dirs []string) string {
	top := ""
	for _, d := range dirs {
		if InChain(d) && (top == "" || len(d) < len(top)) {
			top = d
		}
	}
	return top
}

// DropChain removes the directory chain from top down that render created
// for its state, when it holds nothing but render's own files (the state,
// the journal, their scratch names): renamed to a hidden name first, so a
// crash leaves a name the next run removes rather than an unrecorded
// directory. Otherwise it removes only the journal and says what it kept.
func DropChain(h *hostfs.Root, top string) error {
	if !ownsOnly(h, top) {
		if err := ignoreNotExist(h.Remove(hostlayout.JournalPath)); err != nil {
			return err
		}
		return fmt.Errorf("kept %s: it holds files render did not write", h.Abs(top))
	}
	stage := hostlayout.StagedName(top)
	if err := h.Rename(top, stage); err != nil {
		return fmt.Errorf("remove %s: %w", h.Abs(top), err)
	}
	if err := h.RemoveAll(stage); err != nil {
		return fmt.Errorf("remove %s: %w", h.Abs(stage), err)
	}
	return h.Sync(path.Dir(top))
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
		case InChain(p):
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

func ignoreNotExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
