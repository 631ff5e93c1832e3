package hosttxn

import (
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"
)

// killed is what a simulated kill panics with.
type killed struct{}

// killAt is a hostfs.Root.Fault that stops the run dead (a panic no code
// of the run recovers from) before its nth change to the disk: as a
// SIGKILL would, it leaves the disk as it is. Flushes are not counted and
// never stopped: they change nothing a kill could observe, and they run on
// goroutines a panic must not reach.
func killAt(n int64) (fault func(hostfs.Op, string) error, hit func() bool) {
	var calls atomic.Int64
	return func(op hostfs.Op, _ string) error {
			if op != hostfs.OpSync && calls.Add(1) == n {
				panic(killed{})
			}
			return nil
		}, func() bool {
			return calls.Load() >= n
		}
}

// runKilled runs do with fault set on h and reports whether it was killed.
func runKilled(t *testing.T, h *hostfs.Root, fault func(hostfs.Op, string) error, do func() error) (dead bool, err error) {
	t.Helper()
	defer func() {
		h.Fault = nil
		if r := recover(); r != nil {
			if _, ok := r.(killed); !ok {
				panic(r)
			}
			dead = true
		}
	}()
	h.Fault = fault
	return false, do()
}

// Recover's messages, one per outcome.
const (
	completedMsg = "was completed: all its new files were on disk, so they were put in place"
	undoneMsg    = "was undone: its new files were not all written, so the host is back as it was before it"
)

// TestRecoverAfterAKillAtEveryChange kills Apply before each of its
// changes in turn, for every scenario, and then recovers each such root
// with recoveries that are themselves killed, each one change later than
// the last, until one completes. The root is then as an uninterrupted run
// leaves it when every new file was on disk (rolled forward), else exactly
// as it was before (rolled back, or only the scratch of a run killed
// before its journal existed scrubbed); Recover says which, and leaves no
// journal and no scratch name.
func TestRecoverAfterAKillAtEveryChange(t *testing.T) {
	t.Parallel()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			base, after := sc.expected(t)
			before := treetest.Snapshot(t, base, treetest.Content)
			outcomes := map[string]int{}
			for n := int64(1); ; n++ {
				root := copyRoot(t, base)
				h := openRoot(t, root)
				changes, dirs := sc.plan(t, h)
				fault, hit := killAt(n)
				dead, err := runKilled(t, h, fault, func() error { return Apply(t.Context(), h, "render", "the bundle", changes, dirs) })
				if !dead {
					if hit() || err != nil {
						t.Fatalf("kill #%d: the run neither died nor completed: %v", n, err)
					}
					break
				}
				outcomes[recoverKilled(t, h, n, before, after)]++
			}
			t.Logf("outcomes: %v", outcomes)
			if outcomes["completed"] == 0 || outcomes["undone"] == 0 {
				t.Errorf("want kills both rolled forward and back, got %v", outcomes)
			}
		})
	}
}

// recoverKilled recovers a root a kill at change n left, killing that
// recovery at each of its own changes first, and says how it ended.
func recoverKilled(t *testing.T, h *hostfs.Root, n int64, before, after map[string]treetest.Entry) string {
	t.Helper()
	root := h.Dir()
	pending := anyPending(h)
	var msg string
	for m := int64(1); ; m++ {
		fault, _ := killAt(m)
		dead, err := runKilled(t, h, fault, func() (err error) { msg, err = recoverJournal(h); return err })
		if err != nil {
			t.Fatalf("kill #%d, recovery killed %d times: %v", n, m-1, err)
		}
		if !dead {
			break
		}
	}
	if anyPending(h) {
		t.Errorf("kill #%d: Recover left work for the next run", n)
	}
	treetest.AssertNoScratch(t, root, "after the recovery")
	got := treetest.Snapshot(t, root, treetest.Content)
	switch {
	case strings.Contains(msg, completedMsg):
		treetest.AssertSame(t, "a root rolled forward and an uninterrupted run's", after, got)
		return "completed"
	case strings.Contains(msg, undoneMsg):
		treetest.AssertSame(t, "a root rolled back and the one before", before, got)
		return "undone"
	case msg == "" && reflect.DeepEqual(got, after) && pending:
		return "completed" // by a recovery killed after its journal was gone
	case msg == "":
		// a run killed before its journal was in place, or a recovery
		// killed after its undo removed the journal
		treetest.AssertSame(t, "a root with no journal left and the one before", before, got)
		if pending {
			return "undone"
		}
		return "untouched"
	}
	t.Fatalf("kill #%d: Recover said %q", n, msg)
	return ""
}
