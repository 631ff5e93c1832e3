package hosttxn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
)

// Journal op kinds, executed in journal order.
const (
	opWrite  = "write"  // rename Temp to Path (keeping the old file as Backup)
	opRemove = "remove" // remove Path (keeping it as Backup)
	opPark   = "park"   // move the static pod manifest to Backup
	opUnpark = "unpark" // move it back from Backup unchanged
	opAside  = "aside"  // move Path to Backup before any write (Change.Aside)
)

// journal lists every planned operation with its scratch names, so the next
// run can finish or undo it from the disk alone.
type journal struct {
	Version int    `json:"version"`
	Command string `json:"command"`
	// Dirs are created by the transaction, parents first.
	Dirs []string    `json:"dirs,omitempty"`
	Ops  []journalOp `json:"ops"`
}

type journalOp struct {
	Kind      string `json:"kind"`
	Path      string `json:"path"`
	Placement string `json:"placement"`
	Temp      string `json:"temp,omitempty"`
	Backup    string `json:"backup,omitempty"`
	New       string `json:"new,omitempty"` // sha256 of the new content
	Old       string `json:"old,omitempty"` // sha256 before; "" when absent
}

// writeJournal makes the journal durable before the first change. When the
// state directory is missing, its chain is built under a hidden name and
// renamed into place holding the journal, so a crash never leaves an
// unrecorded directory.
func writeJournal(h *hostfs.Root, j *journal) error {
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the journal: %w", err)
	}
	top, err := firstMissing(h, hostlayout.StateDir)
	if err != nil {
		return err
	}
	if top == "" {
		if err := h.Replace(hostlayout.TempName(hostlayout.JournalPath), hostlayout.JournalPath, data, 0o600); err != nil {
			return fmt.Errorf("write the journal: %w", err)
		}
		return h.Sync(hostlayout.StateDir)
	}
	stage := hostlayout.StagedName(top)
	rest := strings.TrimPrefix(strings.TrimPrefix(hostlayout.StateDir, top), "/")
	dir := stage
	if err := h.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", h.Abs(top), err)
	}
	for _, part := range strings.Split(rest, "/") {
		if part == "" {
			continue
		}
		dir = path.Join(dir, part)
		if err := h.Mkdir(dir, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", h.Abs(top), err)
		}
	}
	if err := h.WriteNew(path.Join(dir, path.Base(hostlayout.JournalPath)), data, 0o600); err != nil {
		return fmt.Errorf("write the journal: %w", err)
	}
	if err := h.Sync(path.Join(dir, path.Base(hostlayout.JournalPath))); err != nil {
		return fmt.Errorf("write the journal: %w", err)
	}
	if err := h.Rename(stage, top); err != nil {
		return fmt.Errorf("write the journal: %w", err)
	}
	return h.Sync(parentOf(top))
}

// firstMissing is the shallowest missing directory of rel's chain, or "".
func firstMissing(h *hostfs.Root, rel string) (string, error) {
	parts := strings.Split(rel, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		fi, err := h.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if !fi.IsDir() {
			return "", &hostfs.UnsafeError{Path: h.Abs(p), Problem: "is not a directory"}
		}
	}
	return "", nil
}

func parentOf(rel string) string {
	if d := path.Dir(rel); d != "." {
		return d
	}
	return "."
}

// readJournal returns the journal, or nil when there is none.
func readJournal(h *hostfs.Root) (*journal, error) {
	data, err := h.ReadFile(hostlayout.JournalPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the journal %s: %w", h.Abs(hostlayout.JournalPath), err)
	}
	var j journal
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("the journal %s is damaged (%v); fix: compare the host with state.json by hand, then delete the journal", h.Abs(hostlayout.JournalPath), err)
	}
	if err := j.validate(); err != nil {
		return nil, fmt.Errorf("the journal %s: %w; fix: compare the host with state.json by hand, then delete the journal", h.Abs(hostlayout.JournalPath), err)
	}
	return &j, nil
}

// validate refuses a journal naming a path render could not have planned:
// recovery renames and removes what it lists.
func (j *journal) validate() error {
	if j.Version != hostlayout.StateVersion {
		return fmt.Errorf("version %d, this binary understands %d", j.Version, hostlayout.StateVersion)
	}
	for _, d := range j.Dirs {
		if err := hostlayout.CheckRel(d); err != nil {
			return fmt.Errorf("directory %q: %w", d, err)
		}
	}
	for _, op := range j.Ops {
		if err := hostlayout.CheckRel(op.Path); err != nil {
			return fmt.Errorf("%s %q: %w", op.Kind, op.Path, err)
		}
		if err := hostlayout.CheckPlacement(hostlayout.StateFile{Path: op.Path, Placement: op.Placement}); err != nil {
			return fmt.Errorf("%s %q: %w", op.Kind, op.Path, err)
		}
		for _, s := range []string{op.Temp, op.Backup} {
			if s != "" && (path.Dir(s) != path.Dir(op.Path) || !hostlayout.IsScratch(path.Base(s))) {
				return fmt.Errorf("%s %q: scratch name %q is not beside it", op.Kind, op.Path, s)
			}
		}
		if op.Kind != opWrite && op.Kind != opRemove && op.Kind != opPark && op.Kind != opUnpark && op.Kind != opAside {
			return fmt.Errorf("unknown operation %q", op.Kind)
		}
	}
	return nil
}

// dropJournal removes the journal, with the state directory chain when the
// transaction created it (statefile.DropChain).
func dropJournal(h *hostfs.Root, created []string) error {
	top := statefile.CreatedChain(created)
	if top == "" {
		if err := ignoreNotExist(h.Remove(hostlayout.JournalPath)); err != nil {
			return fmt.Errorf("remove the journal: %w", err)
		}
		return h.Sync(hostlayout.StateDir)
	}
	return statefile.DropChain(h, top)
}
