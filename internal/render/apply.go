package render

import (
	"fmt"
	"io/fs"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// txn writes a set of changes all or nothing, in this order:
//
//  1. the journal (every operation with its scratch names) is made durable;
//  2. the directories, then every new file under a hidden temporary name in
//     its own directory, all flushed;
//  3. the static pod manifest is moved aside when anything it depends on
//     changes, so while it exists its certificates, keys and Secret are
//     always one consistent generation;
//  4. every file is renamed into place (a replaced file kept as a hard link),
//     the static pod manifest last: the commit point;
//  5. directories flushed, backups and the journal removed.
//
// An error before the commit point undoes everything and verifies it; an
// error after it keeps the new bundle (DurabilityError). A crash at any
// instant is finished or undone by the next run from the journal (Recover).
type txn struct {
	h       *hostfs.Root
	command string
}

func newTxn(h *hostfs.Root, command string) *txn { return &txn{h: h, command: command} }

// apply runs the transaction.
func (t *txn) apply(changes []change, dirs []dirSpec) error {
	j, contents := planJournal(t.command, changes, dirs)
	if err := writeJournal(t.h, j); err != nil {
		if serr := scrub(t.h); serr != nil {
			return fmt.Errorf("%w; cleaning up also failed, inspect %s: %v", err, t.h.Abs(hostlayout.StateDir), serr)
		}
		return fmt.Errorf("%w (the host is unchanged)", err)
	}
	if err := t.prepare(j, contents); err != nil {
		return t.abort(j, err)
	}
	for _, op := range j.Ops {
		if err := t.do(op); err != nil {
			return t.abort(j, err)
		}
	}
	// Commit point: every new file is in place.
	if err := finish(t.h, j); err != nil {
		return &DurabilityError{Err: err}
	}
	return nil
}

// planJournal turns the plan into journal operations.
// newFile is a temporary file's content.
type newFile struct {
	data []byte
	mode fs.FileMode
}

func planJournal(command string, changes []change, dirs []dirSpec) (*journal, map[string]newFile) {
	j := &journal{Version: hostlayout.StateVersion, Command: command}
	for _, d := range dirs {
		j.Dirs = append(j.Dirs, d.rel)
	}
	contents := map[string]newFile{}
	var pod *change
	park := false
	for i := range changes {
		c := &changes[i]
		switch {
		case c.placement == hostlayout.PlacementStaticPod:
			pod = c
		case c.action != ActionUnchanged && c.placement != hostlayout.PlacementState:
			park = true
		}
	}
	park = park && pod != nil && pod.old != "" && pod.action != ActionRemove
	if pod != nil && pod.action == ActionRemove {
		j.Ops = append(j.Ops, journalOp{Kind: opRemove, Path: pod.rel, Placement: pod.placement, Backup: hostfs.BackupName(pod.rel), Old: pod.old})
	}
	var podBackup string
	if park {
		podBackup = hostfs.BackupName(pod.rel)
		j.Ops = append(j.Ops, journalOp{Kind: opPark, Path: pod.rel, Placement: pod.placement, Backup: podBackup, Old: pod.old})
	}
	add := func(c *change, parked bool) {
		switch c.action {
		case ActionCreate, ActionUpdate:
			op := journalOp{Kind: opWrite, Path: c.rel, Placement: c.placement, Temp: hostfs.TempName(c.rel), New: sha256Hex(c.data), Old: c.old}
			if c.old != "" && !parked {
				op.Backup = hostfs.BackupName(c.rel)
			}
			contents[op.Temp] = newFile{data: c.data, mode: c.mode}
			j.Ops = append(j.Ops, op)
		case ActionRemove:
			j.Ops = append(j.Ops, journalOp{Kind: opRemove, Path: c.rel, Placement: c.placement, Backup: hostfs.BackupName(c.rel), Old: c.old})
		case ActionUnchanged:
			if parked {
				j.Ops = append(j.Ops, journalOp{Kind: opUnpark, Path: c.rel, Placement: c.placement, Backup: podBackup, Old: c.old})
			}
		}
	}
	for i := range changes {
		if c := &changes[i]; c != pod {
			add(c, false)
		}
	}
	if pod != nil && pod.action != ActionRemove {
		add(pod, park)
	}
	return j, contents
}
