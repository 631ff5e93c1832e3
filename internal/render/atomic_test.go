package render

import (
	"context"
	"errors"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"
)

var errInjected = errors.New("injected failure")

// failingOps fails the nth call (1-based) of one operation on the bundle's
// files (the journal's own writes are not counted).
func failingOps(op hostfs.Op, n int) func(hostfs.Op, string) error {
	calls := 0
	return func(got hostfs.Op, rel string) error {
		if got != op || strings.Contains(rel, "txn.json") || strings.Contains(rel, hostlayout.StagedMark) {
			return nil
		}
		calls++
		if calls == n {
			return errInjected
		}
		return nil
	}
}

func TestFailureMidwayLeavesHostUnchanged(t *testing.T) {
	cases := []struct {
		name  string
		prior bool // render once first, then change the image and IP
		op    hostfs.Op
		n     int
	}{
		{"fresh: first mkdir", false, hostfs.OpMkdir, 1},
		{"fresh: fifth mkdir", false, hostfs.OpMkdir, 5},
		{"fresh: seventh temp file", false, hostfs.OpWrite, 7},
		{"fresh: first rename", false, hostfs.OpRename, 1},
		{"fresh: last rename", false, hostfs.OpRename, 13},
		{"update: backup link", true, hostfs.OpLink, 3},
		{"update: third rename", true, hostfs.OpRename, 3},
		{"update: fifth rename", true, hostfs.OpRename, 5}, // park pod, state, server.crt/key, DaemonSet, pod
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			opts := baseOpts(root)
			if tc.prior {
				mustRun(t, opts)
				opts.Image, opts.BootstrapIP = "quay.io/other/image:4.21", netip.MustParseAddr("192.0.2.99")
			}
			before := treetest.Snapshot(t, root, treetest.Exact)
			_, err := runWith(context.Background(), opts, failingOps(tc.op, tc.n))
			if !errors.Is(err, errInjected) {
				t.Fatalf("want the injected failure, got %v", err)
			}
			if !strings.Contains(err.Error(), "host is unchanged") {
				t.Errorf("error does not say the host is unchanged: %v", err)
			}
			treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
		})
	}
}

func TestNoTemporaryFilesLeftBehind(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	opts := baseOpts(root)
	opts.Image = "quay.io/other/image:4.22"
	mustRun(t, opts)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if strings.Contains(d.Name(), ".kb-") {
			t.Errorf("left behind: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFailureAfterARemovalRestoresTheFile moves the override elsewhere and
// fails after the old one was removed: rollback must bring it back.
func TestFailureAfterARemovalRestoresTheFile(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	opts := baseOpts(root)
	opts.Image = "quay.io/other/image:4.21" // so the static pod is renamed last, after the removal
	opts.Overlay = tooltest.WriteOverlay(t, tooltest.Overlay{Spec: "paths: {kasConfigOverride: /opt/openshift/other-override.yaml}\n"})
	before := treetest.Snapshot(t, root, treetest.Exact)
	removed, failed := false, false
	fault := func(op hostfs.Op, rel string) error {
		removed = removed || (op == hostfs.OpRemove && strings.HasSuffix(rel, "konnectivity-config-override.yaml"))
		if op == hostfs.OpRename && !failed && strings.HasSuffix(rel, "-> etc/kubernetes/manifests/konnectivity-server-pod.yaml") {
			failed = true
			return errInjected
		}
		return nil
	}
	if _, err := runWith(context.Background(), opts, fault); !errors.Is(err, errInjected) {
		t.Fatalf("want the injected failure, got %v", err)
	}
	if !removed {
		t.Fatal("the old override was never removed, so the test proves nothing")
	}
	treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
}

// TestJournalFlushFailureIsUndone fails the flush of the state directory
// right after the journal is renamed into place (issue 19 point 3): the
// error may say the host is unchanged only because the journal is gone.
func TestJournalFlushFailureIsUndone(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	opts := baseOpts(root)
	opts.BootstrapIP = netip.MustParseAddr("192.0.2.99")
	before := treetest.Snapshot(t, root, treetest.Exact)
	failed := false
	fault := func(op hostfs.Op, rel string) error {
		if op == hostfs.OpSync && rel == hostlayout.StateDir && !failed {
			failed = true
			return errInjected
		}
		return nil
	}
	_, err := runWith(context.Background(), opts, fault)
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
// must not say the journal stays (issue 19 point 3); the next render
// removes what is left and writes the bundle.
func TestFailedCleanupClaimsNoJournal(t *testing.T) {
	root := t.TempDir()
	fault := func(op hostfs.Op, rel string) error {
		switch {
		case op == hostfs.OpRename && strings.HasSuffix(rel, "-> etc/kubernetes/manifests/konnectivity-server-pod.yaml"):
			return errInjected // undo the render
		case op == hostfs.OpRemove && strings.Contains(rel, hostlayout.StagedMark):
			return errors.New("injected cleanup failure") // ... and fail its last step
		}
		return nil
	}
	_, err := runWith(context.Background(), baseOpts(root), fault)
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
	mustRun(t, baseOpts(root))
	if m, _ := filepath.Glob(filepath.Join(root, "var/lib/.*")); len(m) != 0 {
		t.Errorf("the next render left %v", m)
	}
}
