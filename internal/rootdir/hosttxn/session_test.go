package hosttxn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// plantInterrupted leaves under root the journal of a render killed after
// it made a directory, before its temporary file was written: recovery
// undoes it.
func plantInterrupted(t *testing.T, root string) {
	t.Helper()
	h, err := hostfs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	const file = "etc/x.yaml"
	j := &journal{Version: hostlayout.StateVersion, Command: "render", Dirs: []string{"etc"},
		Ops: []journalOp{{Kind: opWrite, Path: file, Placement: hostlayout.PlacementKASEgressConfig, Temp: hostlayout.TempName(file), New: SHA256([]byte("new"))}}}
	if err := writeJournal(h, j); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// holdLock takes root's exclusive lock through another descriptor, as
// another process would, until the test ends.
func holdLock(t *testing.T, root string) {
	t.Helper()
	h, err := hostfs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	l, err := h.Lock(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Unlock() })
}

// TestBegin: each kind of session holds, recovers or only reports as its
// command needs, and a root held by another run is named with the flag
// that sets the wait.
func TestBegin(t *testing.T) {
	errGuard := errors.New("guard refused")
	for _, tc := range []struct {
		name      string
		pending   bool
		locked    bool
		opts      SessionOptions
		wantErr   string // "" for none
		recovered string // what Recovered holds
		journal   bool   // the journal is still there afterwards
		holds     bool   // the session holds a lock that keeps a writer out
	}{
		{name: "write, nothing pending", holds: true},
		{name: "write, pending: recovered", pending: true, recovered: "an interrupted render was undone", holds: true},
		{name: "shared, pending: only told", pending: true, opts: SessionOptions{Shared: true}, recovered: pendingNotice, journal: true, holds: true},
		{name: "status, nothing pending: no lock", locked: true, opts: SessionOptions{OnlyIfPending: true}},
		{name: "status, pending: recovered", pending: true, opts: SessionOptions{OnlyIfPending: true}, recovered: "was undone", holds: true},
		{name: "status, pending and locked: names --timeout", pending: true, locked: true,
			opts: SessionOptions{OnlyIfPending: true, LockFlag: "--timeout"}, wantErr: "raise --timeout", journal: true},
		{name: "locked: names --lock-timeout", locked: true, wantErr: "raise --lock-timeout"},
		{name: "guard refuses before recovery", pending: true, opts: SessionOptions{Guard: func(*hostfs.Root) error { return errGuard }},
			wantErr: errGuard.Error(), journal: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.pending {
				plantInterrupted(t, root)
			}
			if tc.locked {
				holdLock(t, root)
			}
			s, err := Begin(t.Context(), root, tc.opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Begin: %v, want an error with %q", err, tc.wantErr)
				}
			} else {
				if err != nil {
					t.Fatalf("Begin: %v", err)
				}
				defer s.Close()
				if !strings.Contains(s.Recovered, tc.recovered) || (tc.recovered == "") != (s.Recovered == "") {
					t.Errorf("Recovered %q, want %q", s.Recovered, tc.recovered)
				}
				if got := othersCanLock(t, root); got == tc.holds && !tc.locked {
					t.Errorf("another run could lock the root: %v, want %v", got, !tc.holds)
				}
			}
			if _, err := os.Stat(filepath.Join(root, hostlayout.JournalPath)); (err == nil) != tc.journal {
				t.Errorf("journal there: %v, want %v", err == nil, tc.journal)
			}
		})
	}
}

// othersCanLock says whether another descriptor gets root's exclusive lock
// at once.
func othersCanLock(t *testing.T, root string) bool {
	h, err := hostfs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	l, err := h.Lock(t.Context(), 0)
	if err != nil {
		return false
	}
	l.Unlock()
	return true
}

// TestSessionSweep: Sweep removes an older certs' temporaries from the
// directories named and adds them to Swept, and Close lets the next run
// take the lock.
func TestSessionSweep(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "tls")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(dir, ".ca.key.tmp-1804289383")
	if err := os.WriteFile(left, []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Begin(t.Context(), root, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	swept, err := s.Sweep("tls", "tls")
	if err != nil || len(swept) != 1 || swept[0] != left || len(s.Swept) != 1 {
		t.Errorf("Sweep: %v, %v (Swept %v), want [%s]", swept, err, s.Swept, left)
	}
	if _, err := os.Lstat(left); !os.IsNotExist(err) {
		t.Errorf("%s is still there: %v", left, err)
	}
	s.Close()
	if !othersCanLock(t, root) {
		t.Error("the lock outlived Close")
	}
}
