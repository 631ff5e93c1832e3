package hosttxn

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
)

// DurabilityError is an error after the commit point: the new files are in
// place and stay; only their flush to disk or the cleanup is in doubt.
type DurabilityError struct {
	Command string // the run to repeat ("render")
	What    string // what it wrote ("the bundle")
	Err     error
}

func (e *DurabilityError) Error() string {
	return fmt.Sprintf("%s is written but its durability is not confirmed: %v "+
		"(fix: check the disk, then run %s again, which finishes the cleanup and rewrites nothing that is in place)", e.What, e.Err, e.Command)
}

func (e *DurabilityError) Unwrap() error { return e.Err }

// UndoneError is a transaction stopped before its commit point whose undo
// was verified: every file the journal lists holds its previous content,
// no scratch file and no journal is left. It is the only error that says
// the host is unchanged.
type UndoneError struct {
	Err error // why it stopped: an I/O error, or the signal (context.Cause)
	// Began is set when something had been written and was undone; unset
	// when Apply stopped before its first change.
	Began bool
}

func (e *UndoneError) Error() string { return fmt.Sprintf("%v (the host is unchanged)", e.Err) }

func (e *UndoneError) Unwrap() error { return e.Err }

// prepare creates the directories and writes every temporary file.
// A cancelled ctx stops it between two files.
func (t *txn) prepare(ctx context.Context, j *journal, contents map[string]newFile) error {
	modes := map[string]fs.FileMode{}
	for _, d := range j.Dirs {
		modes[d] = 0o755
	}
	for _, d := range j.Dirs {
		if statefile.InChain(d) {
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
		if err := Stopped(ctx); err != nil {
			return err
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
	case opRemove, opAside:
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
		if exists(t.h, hostlayout.JournalPath) {
			return fmt.Errorf("%w; undoing it also failed (the journal %s stays, the next render, teardown or status finishes the undo): %v",
				cause, t.h.Abs(hostlayout.JournalPath), err)
		}
		// The journal went with its state directory, which is now a
		// hidden scratch name: the files are back, the scratch is not.
		return fmt.Errorf("%w; undone, but cleaning up failed (the next render, teardown or status removes what is left): %v", cause, err)
	}
	if err := verifyUndone(t.h, j); err != nil {
		return fmt.Errorf("%w; undone, but the host does not match what it was: %v", cause, err)
	}
	return &UndoneError{Err: cause, Began: true}
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
	if err := removeJournal(h, j); err != nil {
		return errors.Join(syncErr, err)
	}
	// Not flushed: a journal that reappears after a power loss finds every
	// file in place and is only rolled forward (removed) again.
	return syncErr
}

// removeJournal removes the journal after a completed transaction, and the
// state directory chain with it when this transaction created that chain
// and left no state file there (certs writes no state).
func removeJournal(h *hostfs.Root, j *journal) error {
	if !exists(h, hostlayout.StatePath) && statefile.CreatedChain(j.Dirs) != "" {
		return dropJournal(h, j.Dirs)
	}
	if err := h.Remove(hostlayout.JournalPath); err != nil {
		return fmt.Errorf("remove the journal: %w", err)
	}
	return nil
}
