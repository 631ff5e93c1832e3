// Package hosttxn changes a set of files under a host root all or nothing,
// through a journal the next run reads to finish or undo a transaction a
// crash interrupted. render and certs write through it; teardown and
// status recover with it (docs/render.md). The journal lives in the state
// file's directory: when a transaction created that directory, it goes
// with the journal through internal/rootdir/statefile (DropChain), the
// one place the state file and its directory are removed.
package hosttxn

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// Action says what a transaction does (or would do) to one file.
type Action string

// Actions in a plan.
const (
	Create    Action = "create"
	Update    Action = "update"
	Unchanged Action = "unchanged"
	Remove    Action = "remove" // recorded by an earlier run, no longer wanted
)

// Change is one file of a transaction, compared with the disk.
type Change struct {
	Rel       string // relative to the root, slash-separated
	Placement string // a hostlayout placement
	Data      []byte
	Mode      fs.FileMode
	Action    Action
	Old       string // SHA256 of the file on disk; "" when absent
	// Aside moves the old file away before any new file is put in place,
	// so no instant shows it beside a new one it does not match (a server
	// certificate beside the old key). A mode-only change keeps its bytes
	// and is not moved.
	Aside bool
}

// SHA256 is the hex sha256 of b, as the journal and the state file record it.
func SHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

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
// instant is finished or undone by the next run from the journal (recoverJournal).
type txn struct {
	h *hostfs.Root
	// command names the run in the journal and in messages ("render").
	command string
	// what names its result in messages ("the bundle").
	what string
}

// Apply writes changes under h with the txn steps above. dirs are the
// directories to create, parents first; command names the run ("render")
// and what its result ("the bundle") in the journal and the messages.
//
// ctx is checked between steps, never inside one: cancelled before the
// commit point (a SIGTERM, docs/render.md), the transaction is undone and
// verified, and the error is an *UndoneError wrapping context.Cause(ctx);
// cancelled at or after it, the transaction is finished and Apply returns
// nil.
func Apply(ctx context.Context, h *hostfs.Root, command, what string, changes []Change, dirs []string) error {
	if err := Stopped(ctx); err != nil {
		return &UndoneError{Err: err} // nothing was touched
	}
	t := &txn{h: h, command: command, what: what}
	j, contents := planJournal(command, changes, dirs)
	if err := writeJournal(t.h, j); err != nil {
		if exists(t.h, hostlayout.JournalPath) {
			// It got into place (only its flush failed): undo it like
			// any other step, so "unchanged" is verified, not assumed.
			return t.abort(j, err)
		}
		return t.scrubbed(err)
	}
	if err := Stopped(ctx); err != nil {
		return t.abort(j, err)
	}
	if err := t.prepare(ctx, j, contents); err != nil {
		return t.abort(j, err)
	}
	for _, op := range j.Ops {
		if err := Stopped(ctx); err != nil {
			return t.abort(j, err)
		}
		if err := t.do(op); err != nil {
			return t.abort(j, err)
		}
	}
	// Commit point: every new file is in place.
	if err := finish(t.h, j); err != nil {
		return &DurabilityError{Command: t.command, What: t.what, Err: err}
	}
	return nil
}

// Stopped is why ctx was cancelled (the signal the CLI caught), or nil:
// every command that holds a host session checks it between its steps.
func Stopped(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	return context.Cause(ctx)
}

// scrubbed handles a journal that never got into place: what writing it
// left is removed, and the host is called unchanged only when nothing of
// it is left (anyPending).
func (t *txn) scrubbed(cause error) error {
	if err := scrub(t.h); err != nil {
		return fmt.Errorf("%w; cleaning up also failed, inspect %s: %v", cause, t.h.Abs(hostlayout.StateDir), err)
	}
	if anyPending(t.h) {
		return fmt.Errorf("%w; cleaning up left scratch files, inspect %s (the next render, teardown or status removes them)", cause, t.h.Abs(hostlayout.StateDir))
	}
	return &UndoneError{Err: cause, Began: true}
}

// newFile is a temporary file's content.
type newFile struct {
	data []byte
	mode fs.FileMode
}

// planJournal turns the plan into journal operations.
func planJournal(command string, changes []Change, dirs []string) (*journal, map[string]newFile) {
	j := &journal{Version: hostlayout.StateVersion, Command: command, Dirs: dirs}
	contents := map[string]newFile{}
	var pod *Change
	park := false
	for i := range changes {
		c := &changes[i]
		switch {
		case c.Placement == hostlayout.PlacementStaticPod:
			pod = c
		case c.Action != Unchanged && c.Placement != hostlayout.PlacementState:
			park = true
		}
	}
	park = park && pod != nil && pod.Old != "" && pod.Action != Remove
	if pod != nil && pod.Action == Remove {
		j.Ops = append(j.Ops, journalOp{Kind: opRemove, Path: pod.Rel, Placement: pod.Placement, Backup: hostlayout.BackupName(pod.Rel), Old: pod.Old})
	}
	var podBackup string
	if park {
		podBackup = hostlayout.BackupName(pod.Rel)
		j.Ops = append(j.Ops, journalOp{Kind: opPark, Path: pod.Rel, Placement: pod.Placement, Backup: podBackup, Old: pod.Old})
	}
	aside := map[string]bool{}
	for _, c := range changes {
		if c.Aside && c.Action == Update && c.Old != SHA256(c.Data) {
			aside[c.Rel] = true
			j.Ops = append(j.Ops, journalOp{Kind: opAside, Path: c.Rel, Placement: c.Placement, Backup: hostlayout.BackupName(c.Rel), Old: c.Old})
		}
	}
	add := func(c *Change, parked bool) {
		switch c.Action {
		case Create, Update:
			op := journalOp{Kind: opWrite, Path: c.Rel, Placement: c.Placement, Temp: hostlayout.TempName(c.Rel), New: SHA256(c.Data), Old: c.Old}
			if c.Old != "" && !parked && !aside[c.Rel] {
				op.Backup = hostlayout.BackupName(c.Rel)
			}
			contents[op.Temp] = newFile{data: c.Data, mode: c.Mode}
			j.Ops = append(j.Ops, op)
		case Remove:
			j.Ops = append(j.Ops, journalOp{Kind: opRemove, Path: c.Rel, Placement: c.Placement, Backup: hostlayout.BackupName(c.Rel), Old: c.Old})
		case Unchanged:
			if parked {
				j.Ops = append(j.Ops, journalOp{Kind: opUnpark, Path: c.Rel, Placement: c.Placement, Backup: podBackup, Old: c.Old})
			}
		}
	}
	for i := range changes {
		if c := &changes[i]; c != pod {
			add(c, false)
		}
	}
	if pod != nil && pod.Action != Remove {
		add(pod, park)
	}
	return j, contents
}
