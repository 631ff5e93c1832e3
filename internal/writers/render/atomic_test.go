package render

import (
	"context"
	"errors"
	"io/fs"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
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
			t.Parallel()
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
	var mu sync.Mutex // SyncAll runs the hook from several goroutines at once
	fault := func(op hostfs.Op, rel string) error {
		mu.Lock()
		defer mu.Unlock()
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
