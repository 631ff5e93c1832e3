package hosttxn

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
)

// rollForward finishes an interrupted transaction whose new content is all
// on disk. Every step checks the disk first, so it can itself be
// interrupted and run again.
func rollForward(h *hostfs.Root, j *journal) error {
	var temps []string
	for _, op := range j.Ops {
		if op.Kind == opWrite && exists(h, op.Temp) {
			temps = append(temps, op.Temp)
		}
	}
	if err := h.SyncAll(temps); err != nil {
		return err
	}
	pending := len(temps) > 0
	for _, op := range j.Ops {
		var err error
		switch {
		case op.Kind == opWrite && exists(h, op.Temp):
			err = h.Rename(op.Temp, op.Path)
		case op.Kind == opRemove && exists(h, op.Path):
			err = h.Remove(op.Path)
		case op.Kind == opAside && fileSHA(h, op.Path) == op.Old:
			err = h.Remove(op.Path) // still the old file: the write comes later
		case op.Kind == opPark && pending && exists(h, op.Path) && !exists(h, op.Backup):
			err = h.Rename(op.Path, op.Backup) // keep it away while files change
		case op.Kind == opUnpark && !exists(h, op.Path) && exists(h, op.Backup):
			err = h.Rename(op.Backup, op.Path)
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", op.Kind, h.Abs(op.Path), err)
		}
	}
	return finish(h, j)
}

// rollBack undoes an interrupted or failed transaction, newest first.
func rollBack(h *hostfs.Root, j *journal) error {
	var errs []error
	for i := len(j.Ops) - 1; i >= 0; i-- {
		op := j.Ops[i]
		switch {
		case op.Backup != "" && op.Kind != opUnpark && exists(h, op.Backup):
			errs = append(errs, h.Rename(op.Backup, op.Path))
			// renaming a hard link onto its own inode leaves both names
			errs = append(errs, ignoreNotExist(h.Remove(op.Backup)))
		case op.Kind == opWrite && op.Old == "" && fileSHA(h, op.Path) == op.New:
			errs = append(errs, h.Remove(op.Path))
		}
		if op.Temp != "" {
			errs = append(errs, ignoreNotExist(h.Remove(op.Temp)))
		}
	}
	for i := len(j.Dirs) - 1; i >= 0; i-- {
		if statefile.InChain(j.Dirs[i]) {
			continue
		}
		// Someone else's file in it makes the directory theirs too: it stays
		// (an in-process undo then reports it as left behind).
		if err := ignoreNotExist(h.Remove(j.Dirs[i])); err != nil && !errors.Is(err, syscall.ENOTEMPTY) && !errors.Is(err, syscall.EEXIST) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return dropJournal(h, j.Dirs)
}

func verifyUndone(h *hostfs.Root, j *journal) error {
	for _, op := range j.Ops {
		if got := fileSHA(h, op.Path); got != op.Old {
			return fmt.Errorf("%s does not hold its previous content", h.Abs(op.Path))
		}
		for _, s := range []string{op.Temp, op.Backup} {
			if s != "" && exists(h, s) {
				return fmt.Errorf("%s is left behind", h.Abs(s))
			}
		}
	}
	for _, d := range append([]string{hostlayout.JournalPath}, j.Dirs...) {
		if exists(h, d) {
			return fmt.Errorf("%s is left behind", h.Abs(d))
		}
	}
	return nil
}

// complete reports whether every new file is on disk, in place or under
// its temporary name: then the transaction can be finished.
func complete(h *hostfs.Root, j *journal) bool {
	for _, op := range j.Ops {
		if op.Kind == opWrite && fileSHA(h, op.Path) != op.New && fileSHA(h, op.Temp) != op.New {
			return false
		}
	}
	return true
}

// recoverJournal finishes or undoes a transaction an interrupted run left behind
// (the caller holds the lock) and says which; "" when there was none.
func recoverJournal(h *hostfs.Root) (string, error) {
	if err := scrub(h); err != nil {
		return "", err
	}
	j, err := readJournal(h)
	if err != nil || j == nil {
		return "", err
	}
	if complete(h, j) {
		if err := rollForward(h, j); err != nil {
			return "", fmt.Errorf("finish the interrupted %s: %w", j.Command, err)
		}
		if err := verifyDone(h, j); err != nil {
			return fmt.Sprintf("an interrupted %s was completed, but the host does not show it: %v", j.Command, err), nil
		}
		return fmt.Sprintf("an interrupted %s was completed: all its new files were on disk, so they were put in place", j.Command), nil
	}
	if err := rollBack(h, j); err != nil {
		return "", fmt.Errorf("undo the interrupted %s: %w", j.Command, err)
	}
	// What the next command would trip over fails above; a directory kept
	// for someone else's file is reported, not fatal.
	if err := verifyUndone(h, j); err != nil {
		return fmt.Sprintf("an interrupted %s was undone, except that %v", j.Command, err), nil
	}
	return fmt.Sprintf("an interrupted %s was undone: its new files were not all written, so the host is back as it was before it", j.Command), nil
}

// verifyDone checks the host holds what a finished transaction leaves:
// every new file, no removed one, no scratch name, no journal.
func verifyDone(h *hostfs.Root, j *journal) error {
	for _, op := range j.Ops {
		switch {
		case op.Kind == opWrite && fileSHA(h, op.Path) != op.New:
			return fmt.Errorf("%s does not hold its new content", h.Abs(op.Path))
		case op.Kind == opRemove && exists(h, op.Path):
			return fmt.Errorf("%s is still there", h.Abs(op.Path))
		case op.Kind == opUnpark && fileSHA(h, op.Path) != op.Old:
			return fmt.Errorf("%s is not back", h.Abs(op.Path))
		}
		for _, s := range []string{op.Temp, op.Backup} {
			if s != "" && exists(h, s) {
				return fmt.Errorf("%s is left behind", h.Abs(s))
			}
		}
	}
	if exists(h, hostlayout.JournalPath) {
		return fmt.Errorf("%s is left behind", h.Abs(hostlayout.JournalPath))
	}
	return nil
}

// scrub removes what a run killed before its journal existed can leave:
// a hidden staged state directory, a temporary journal or state file.
func scrub(h *hostfs.Root) error {
	left, err := leftovers(h)
	if err != nil {
		return err
	}
	for _, rel := range left {
		if err := h.RemoveAll(rel); err != nil {
			return fmt.Errorf("remove %s: %w", h.Abs(rel), err)
		}
	}
	return nil
}

// leftovers lists the scratch names scrub removes.
func leftovers(h *hostfs.Root) ([]string, error) {
	var out []string
	parts := strings.Split(hostlayout.StateDir, "/")
	for i := range parts {
		parent := strings.Join(parts[:i], "/")
		if i == 0 {
			parent = "."
		}
		names, err := h.ReadDirNames(parent)
		if err != nil {
			return nil, fmt.Errorf("inspect %s: %w", h.Abs(parent), err)
		}
		for _, n := range names {
			if strings.HasPrefix(n, "."+parts[i]+hostlayout.StagedMark) {
				out = append(out, path.Join(parent, n))
			}
		}
	}
	names, err := h.ReadDirNames(hostlayout.StateDir)
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", h.Abs(hostlayout.StateDir), err)
	}
	for _, n := range names {
		// A temporary journal, or a state file a killed teardown was
		// writing: never renamed into place, so nothing refers to it.
		if strings.HasPrefix(n, "."+path.Base(hostlayout.JournalPath)+".kb-tmp-") ||
			strings.HasPrefix(n, "."+path.Base(hostlayout.StatePath)+".kb-tmp-") {
			out = append(out, path.Join(hostlayout.StateDir, n))
		}
	}
	return out, nil
}

// anyPending reports whether recoverJournal has anything to do under h: a journal,
// or scratch names a killed run left. Readers take the lock only then.
func anyPending(h *hostfs.Root) bool {
	if exists(h, hostlayout.JournalPath) {
		return true
	}
	left, err := leftovers(h)
	return err != nil || len(left) > 0
}

func exists(h *hostfs.Root, rel string) bool {
	ok, _ := h.Exists(rel)
	return ok
}

// fileSHA is the sha256 of a regular file, "" when it is absent or unreadable.
func fileSHA(h *hostfs.Root, rel string) string {
	if rel == "" {
		return ""
	}
	data, err := h.ReadFile(rel)
	if err != nil {
		return ""
	}
	return SHA256(data)
}

func ignoreNotExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
