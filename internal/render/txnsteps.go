package render

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// DurabilityError is an error after the commit point: the new bundle is in
// place and stays; only its flush to disk or the cleanup is in doubt.
type DurabilityError struct{ Err error }

func (e *DurabilityError) Error() string {
	return fmt.Sprintf("the bundle is written but its durability is not confirmed: %v "+
		"(fix: check the disk, then run render again, which finishes the cleanup and rewrites nothing that is in place)", e.Err)
}

func (e *DurabilityError) Unwrap() error { return e.Err }

// prepare creates the directories and writes every temporary file.
func (t *txn) prepare(j *journal, contents map[string]newFile) error {
	modes := map[string]fs.FileMode{}
	for _, d := range j.Dirs {
		modes[d] = 0o755
	}
	for _, d := range j.Dirs {
		if inStateChain(d) {
			continue // writeJournal made them
		}
		mode := fs.FileMode(0o755)
		if isPrivateDir(j, d) {
			mode = 0o700
		}
		if err := t.h.Mkdir(d, mode); err != nil {
			return fmt.Errorf("create directory %s: %w", t.h.Abs(d), err)
		}
	}
	var temps []string
	for _, op := range j.Ops {
		if op.Kind != opWrite {
			continue
		}
		nf := contents[op.Temp]
		if err := t.h.WriteNew(op.Temp, nf.data, nf.mode); err != nil {
			return fmt.Errorf("write %s: %w", t.h.Abs(op.Path), err)
		}
		temps = append(temps, op.Temp)
	}
	// The new content is on disk before any rename can publish it.
	return t.h.SyncAll(temps)
}

// isPrivateDir: a created directory holding a key is made 0700.
func isPrivateDir(j *journal, dir string) bool {
	for _, op := range j.Ops {
		if op.Kind == opWrite && path.Dir(op.Path) == dir && strings.HasSuffix(op.Path, ".key") {
			return true
		}
	}
	return false
}

// inStateChain reports whether dir is the state directory or one of its parents.
func inStateChain(dir string) bool {
	return dir == hostlayout.StateDir || strings.HasPrefix(hostlayout.StateDir, dir+"/")
}

// do runs one operation exactly (this run planned it and knows the disk).
func (t *txn) do(op journalOp) error {
	h := t.h
	switch op.Kind {
	case opWrite:
		if op.Backup != "" {
			if err := h.Link(op.Path, op.Backup); err != nil {
				return fmt.Errorf("keep a backup of %s: %w", h.Abs(op.Path), err)
			}
		}
		if err := h.Rename(op.Temp, op.Path); err != nil {
			return fmt.Errorf("put %s in place: %w", h.Abs(op.Path), err)
		}
	case opRemove:
		if err := h.Link(op.Path, op.Backup); err != nil {
			return fmt.Errorf("keep a backup of %s: %w", h.Abs(op.Path), err)
		}
		if err := h.Remove(op.Path); err != nil {
			return fmt.Errorf("remove %s: %w", h.Abs(op.Path), err)
		}
	case opPark:
		if err := h.Rename(op.Path, op.Backup); err != nil {
			return fmt.Errorf("move %s aside: %w", h.Abs(op.Path), err)
		}
	case opUnpark:
		if err := h.Rename(op.Backup, op.Path); err != nil {
			return fmt.Errorf("put %s back: %w", h.Abs(op.Path), err)
		}
	}
	return nil
}

// abort undoes a transaction that failed before its commit point and says
// whether the host is verifiably as it was.
func (t *txn) abort(j *journal, cause error) error {
	if err := rollBack(t.h, j); err != nil {
		return fmt.Errorf("%w; undoing it also failed (the journal %s stays, the next render, teardown or status finishes the undo): %v",
			cause, t.h.Abs(hostlayout.JournalPath), err)
	}
	if err := verifyUndone(t.h, j); err != nil {
		return fmt.Errorf("%w; undone, but the host does not match what it was: %v", cause, err)
	}
	return fmt.Errorf("%w (the host is unchanged)", cause)
}

// finish flushes the renames and removes the backups and the journal.
func finish(h *hostfs.Root, j *journal) error {
	dirs := map[string]bool{hostlayout.StateDir: true}
	for _, op := range j.Ops {
		dirs[path.Dir(op.Path)] = true
	}
	for _, d := range j.Dirs { // the entries of the directories it created
		dirs[parentOf(d)] = true
	}
	list := make([]string, 0, len(dirs))
	for d := range dirs {
		list = append(list, d)
	}
	sort.Strings(list)
	syncErr := h.SyncAll(list) // makes the renames durable
	var errs []error
	for _, op := range j.Ops {
		if op.Backup != "" {
			errs = append(errs, ignoreNotExist(h.Remove(op.Backup)))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return errors.Join(syncErr, fmt.Errorf("remove backups: %w", err))
	}
	if err := h.Remove(hostlayout.JournalPath); err != nil {
		return errors.Join(syncErr, fmt.Errorf("remove the journal: %w", err))
	}
	// Not flushed: a journal that reappears after a power loss finds every
	// file in place and is only rolled forward (removed) again.
	return syncErr
}

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
		if inStateChain(j.Dirs[i]) {
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

// dropJournal removes the journal, with the state directory chain when the
// transaction created it: renamed to a hidden name first, so a crash leaves
// a name the next run removes rather than an unrecorded directory.
func dropJournal(h *hostfs.Root, created []string) error {
	top := ""
	for _, d := range created {
		if inStateChain(d) && (top == "" || len(d) < len(top)) {
			top = d
		}
	}
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
		case p == hostlayout.StatePath || p == hostlayout.JournalPath || (path.Dir(p) == hostlayout.StateDir && hostfs.IsScratch(n)):
		default:
			return false
		}
	}
	return true
}

// verifyUndone checks the host is as the journal says it was.
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

// Recover finishes or undoes a transaction an interrupted run left behind
// (the caller holds the lock) and says which; "" when there was none.
func Recover(h *hostfs.Root) (string, error) {
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
		return fmt.Sprintf("an interrupted %s was completed: all its new files were on disk, so they were put in place", j.Command), nil
	}
	if err := rollBack(h, j); err != nil {
		return "", fmt.Errorf("undo the interrupted %s: %w", j.Command, err)
	}
	return fmt.Sprintf("an interrupted %s was undone: its new files were not all written, so the host is back as it was before it", j.Command), nil
}

// scrub removes what a run killed before its journal existed can leave:
// a hidden staged state directory, or a temporary journal.
func scrub(h *hostfs.Root) error {
	parts := strings.Split(hostlayout.StateDir, "/")
	for i := range parts {
		parent := "."
		if i > 0 {
			parent = strings.Join(parts[:i], "/")
		}
		names, err := h.ReadDirNames(parent)
		if err != nil {
			return fmt.Errorf("inspect %s: %w", h.Abs(parent), err)
		}
		for _, n := range names {
			if strings.HasPrefix(n, "."+parts[i]+hostlayout.StagedMark) {
				if err := h.RemoveAll(path.Join(parent, n)); err != nil {
					return fmt.Errorf("remove %s: %w", h.Abs(path.Join(parent, n)), err)
				}
			}
		}
	}
	names, err := h.ReadDirNames(hostlayout.StateDir)
	if err != nil {
		return fmt.Errorf("inspect %s: %w", h.Abs(hostlayout.StateDir), err)
	}
	for _, n := range names {
		if strings.HasPrefix(n, "."+path.Base(hostlayout.JournalPath)+".kb-tmp-") {
			if err := h.Remove(path.Join(hostlayout.StateDir, n)); err != nil {
				return err
			}
		}
	}
	return nil
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
	return sha256Hex(data)
}

func ignoreNotExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// RemoveState deletes the state file and, when render created them (dirs is
// the state's Dirs), the state directory and its parents, without a crash
// window that could leave an unrecorded directory. It returns what it
// removed, as absolute paths (directories end in "/").
func RemoveState(h *hostfs.Root, dirs []string) ([]string, error) {
	top := ""
	for _, d := range dirs {
		if inStateChain(d) && (top == "" || len(d) < len(top)) {
			top = d
		}
	}
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
