package render

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var errInjected = errors.New("injected failure")

// failingOps fails the nth call (1-based) of one operation.
func failingOps(op string, n int) fsOps {
	ops := osOps
	calls := 0
	hit := func() bool { calls++; return calls == n }
	switch op {
	case "mkdir":
		ops.mkdir = func(p string, m fs.FileMode) error {
			if hit() {
				return errInjected
			}
			return os.Mkdir(p, m)
		}
	case "writeTemp":
		ops.writeTemp = func(dir, pat string, data []byte, m fs.FileMode) (string, error) {
			if hit() {
				return "", errInjected
			}
			return writeTemp(dir, pat, data, m)
		}
	case "link":
		ops.link = func(a, b string) error {
			if hit() {
				return errInjected
			}
			return os.Link(a, b)
		}
	case "rename":
		ops.rename = func(a, b string) error {
			if hit() {
				return errInjected
			}
			return os.Rename(a, b)
		}
	}
	return ops
}

func TestFailureMidwayLeavesHostUnchanged(t *testing.T) {
	cases := []struct {
		name  string
		prior bool // render once first, then change the image and IP
		op    string
		n     int
	}{
		{"fresh: first mkdir", false, "mkdir", 1},
		{"fresh: fifth mkdir", false, "mkdir", 5},
		{"fresh: seventh temp file", false, "writeTemp", 7},
		{"fresh: first rename", false, "rename", 1},
		{"fresh: last rename", false, "rename", 13},
		{"update: backup link", true, "link", 3},
		{"update: third rename", true, "rename", 3},
		{"update: last rename", true, "rename", 5}, // state, server.crt/key, DaemonSet, pod
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			opts := baseOpts(root)
			if tc.prior {
				mustRun(t, opts)
				opts.Image, opts.BootstrapIP = "quay.io/other/image:2", "192.0.2.99"
			}
			before := snapshot(t, root)
			_, err := runWith(context.Background(), opts, failingOps(tc.op, tc.n))
			if !errors.Is(err, errInjected) {
				t.Fatalf("want the injected failure, got %v", err)
			}
			if !strings.Contains(err.Error(), "host is unchanged") {
				t.Errorf("error does not say the host is unchanged: %v", err)
			}
			assertSameHost(t, before, snapshot(t, root))
		})
	}
}

func TestNoTemporaryFilesLeftBehind(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	opts := baseOpts(root)
	opts.Image = "quay.io/other/image:3"
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
	opts.Image = "quay.io/other/image:4" // so the static pod is renamed last, after the removal
	opts.Overlay = writeOverlay(t, "- op: add\n  path: /spec/paths\n  value: {kasConfigOverride: /opt/openshift/other-override.yaml}\n")
	before := snapshot(t, root)
	removed := false
	ops := osOps
	ops.remove = func(p string) error {
		removed = removed || strings.HasSuffix(p, "konnectivity-config-override.yaml")
		return os.Remove(p)
	}
	ops.rename = func(a, b string) error {
		if strings.HasSuffix(b, "konnectivity-server-pod.yaml") {
			return errInjected
		}
		return os.Rename(a, b)
	}
	if _, err := runWith(context.Background(), opts, ops); !errors.Is(err, errInjected) {
		t.Fatalf("want the injected failure, got %v", err)
	}
	if !removed {
		t.Fatal("the old override was never removed, so the test proves nothing")
	}
	assertSameHost(t, before, snapshot(t, root))
}
