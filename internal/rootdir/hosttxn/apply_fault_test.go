package hosttxn

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"
)

var errInjected = errors.New("injected failure")

// failAt is a hostfs.Root.Fault that fails the nth file operation of any
// kind, flushes included; hit reports whether the run got that far. Flushes
// run concurrently (SyncAll), hence the atomic count.
func failAt(n int64) (fault func(hostfs.Op, string) error, hit func() bool) {
	var calls atomic.Int64
	return func(hostfs.Op, string) error {
			if calls.Add(1) == n {
				return errInjected
			}
			return nil
		}, func() bool {
			return calls.Load() >= n
		}
}

// TestApplyFaultAtEveryStep fails each file operation of Apply in turn, for
// every scenario, until a run gets through. A failure before the commit
// point is undone and verified: an UndoneError, and the root exactly as
// before (same inodes and times). A failure after it keeps the new files:
// a DurabilityError, every file of the run in place, and the next Recover
// leaves the root as an uninterrupted run does. Nothing in between.
func TestApplyFaultAtEveryStep(t *testing.T) {
	t.Parallel()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			base, after := sc.expected(t)
			outcomes := map[string]int{}
			for n := int64(1); ; n++ {
				root := copyRoot(t, base)
				before := treetest.Snapshot(t, root, treetest.Exact)
				h := openRoot(t, root)
				changes, dirs := sc.plan(t, h)
				fault, hit := failAt(n)
				h.Fault = fault
				err := Apply(t.Context(), h, "render", "the bundle", changes, dirs)
				h.Fault = nil
				if !hit() {
					if err != nil {
						t.Fatalf("a run with no fault failed: %v", err)
					}
					treetest.AssertSame(t, "the completed root and an uninterrupted run's", after, treetest.Snapshot(t, root, treetest.Content))
					break
				}
				outcomes[sc.faulted(t, h, n, err, before, after)]++
			}
			t.Logf("outcomes: %v", outcomes)
			if outcomes["undone"] == 0 || outcomes["durable"] == 0 {
				t.Errorf("want faults both before and after the commit point, got %v", outcomes)
			}
		})
	}
}

// faulted checks the root after Apply failed at operation n, and says on
// which side of the commit point the failure fell.
func (sc scenario) faulted(t *testing.T, h *hostfs.Root, n int64, err error, before, after map[string]treetest.Entry) string {
	t.Helper()
	root := h.Dir()
	var undone *UndoneError
	var durable *DurabilityError
	switch {
	case !errors.Is(err, errInjected):
		t.Fatalf("fault #%d: want the injected failure, got %v", n, err)
	case errors.As(err, &undone):
		if !strings.Contains(err.Error(), "(the host is unchanged)") {
			t.Errorf("fault #%d: an undone run does not say the host is unchanged: %v", n, err)
		}
		treetest.AssertSame(t, "the root before and after an undone run", before, treetest.Snapshot(t, root, treetest.Exact))
		return "undone"
	case errors.As(err, &durable):
		for _, f := range sc.want {
			if got := fileSHA(h, f.rel); got != SHA256([]byte(f.data)) {
				t.Errorf("fault #%d after the commit point (%v): %s does not hold its new content", n, err, f.rel)
			}
		}
		for _, f := range sc.remove {
			if exists(h, f.rel) {
				t.Errorf("fault #%d after the commit point (%v): %s is still there", n, err, f.rel)
			}
		}
		if _, rerr := recoverJournal(h); rerr != nil {
			t.Fatalf("fault #%d: the next Recover: %v", n, rerr)
		}
		treetest.AssertSame(t, "the recovered root and an uninterrupted run's", after, treetest.Snapshot(t, root, treetest.Content))
		return "durable"
	default:
		t.Fatalf("fault #%d: %v is neither undone nor after the commit point", n, err)
	}
	return ""
}

// TestJournalFlushFailureIsUndone fails the flush of the state directory
// right after the journal is renamed into place (issue 19 point 3): the
// error may say the host is unchanged only because the journal is gone.
func TestJournalFlushFailureIsUndone(t *testing.T) {
	root := applyFiles(t, bundle("v1", "v1"))
	h := openRoot(t, root)
	changes, dirs := scenario{want: bundle("v2", "v2")}.plan(t, h)
	before := treetest.Snapshot(t, root, treetest.Exact)
	failed := false
	h.Fault = func(op hostfs.Op, rel string) error {
		if op == hostfs.OpSync && rel == hostlayout.StateDir && !failed {
			failed = true
			return errInjected
		}
		return nil
	}
	err := Apply(t.Context(), h, "render", "the bundle", changes, dirs)
	if !errors.Is(err, errInjected) || !strings.Contains(err.Error(), "host is unchanged") {
		t.Fatalf("want the injected failure and the host unchanged, got %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(root, hostlayout.JournalPath)); len(m) != 0 {
		t.Fatalf("the error says unchanged, but the journal %s is still there", m[0])
	}
	treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
}

// TestFailedCleanupClaimsNoJournal: an undo whose last step, removing the
// state directory the run created, fails after the journal went with it
// must not say the journal stays (issue 19 point 3); the next run
// removes what is left and writes the bundle.
func TestFailedCleanupClaimsNoJournal(t *testing.T) {
	root := t.TempDir()
	h := openRoot(t, root)
	sc := scenario{want: bundle("v1", "v1")}
	changes, dirs := sc.plan(t, h)
	h.Fault = func(op hostfs.Op, rel string) error {
		switch {
		case op == hostfs.OpRename && strings.HasSuffix(rel, "-> "+podRel):
			return errInjected // undo the run
		case op == hostfs.OpRemove && strings.Contains(rel, hostlayout.StagedMark):
			return errors.New("injected cleanup failure") // ... and fail its last step
		}
		return nil
	}
	err := Apply(t.Context(), h, "render", "the bundle", changes, dirs)
	h.Fault = nil
	if !errors.Is(err, errInjected) {
		t.Fatalf("want the injected failure, got %v", err)
	}
	_, jerr := os.Lstat(filepath.Join(root, hostlayout.JournalPath))
	journal := jerr == nil
	if strings.Contains(err.Error(), "journal") && strings.Contains(err.Error(), "stays") && !journal {
		t.Errorf("the error says the journal stays, but it is gone: %v", err)
	}
	if strings.Contains(err.Error(), "host is unchanged") {
		t.Errorf("the error claims the host is unchanged though the cleanup failed: %v", err)
	}
	// the next run: recover, then write the bundle
	if _, err := recoverJournal(h); err != nil {
		t.Fatalf("the next run's recovery: %v", err)
	}
	changes, dirs = sc.plan(t, h)
	if err := Apply(t.Context(), h, "render", "the bundle", changes, dirs); err != nil {
		t.Fatalf("the next run: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "var/lib/.*")); len(m) != 0 {
		t.Errorf("the next run left %v", m)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "."+"var"+hostlayout.StagedMark+"*")); len(m) != 0 {
		t.Errorf("the next run left %v", m)
	}
}
