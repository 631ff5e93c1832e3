package hostfs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
)

// TestResolveRefusesLinks: a path through a symbolic link is refused
// unless the link sits directly under the root and stays inside it (the
// ostree /opt -> var/opt layout); the error names the link.
func TestResolveRefusesLinks(t *testing.T) {
	cases := []struct {
		name, link, target, path string
		ok                       bool
	}{
		{"ostree top-level link", "opt", "var/opt", "opt/openshift/x.yaml", true},
		{"top-level link out of the root", "opt", "/tmp", "opt/x.yaml", false},
		{"top-level link up", "opt", "../x", "opt/x.yaml", false},
		{"nested link inside the root", "etc/kubernetes", "../var", "etc/kubernetes/x.yaml", false},
		{"nested absolute link", "etc/kubernetes", "/etc", "etc/kubernetes/x.yaml", false},
		{"final component is a link", "etc/x.yaml", "/etc/passwd", "etc/x.yaml", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, d := range []string{"var/opt", "etc"} {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(tc.target, filepath.Join(dir, tc.link)); err != nil {
				t.Fatal(err)
			}
			r, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if tc.ok {
				if err := os.MkdirAll(filepath.Join(dir, "var/opt/openshift"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := r.WriteNew(tc.path, []byte("x"), 0o644); err != nil {
					t.Fatalf("write through %s: %v", tc.link, err)
				}
				if _, err := os.Stat(filepath.Join(dir, "var/opt/openshift/x.yaml")); err != nil {
					t.Fatalf("not written beneath the link's target: %v", err)
				}
				return
			}
			_, err = r.Regular(tc.path)
			var ue *UnsafeError
			if !errors.As(err, &ue) || ue.Path != filepath.Join(dir, tc.link) {
				t.Fatalf("want an UnsafeError naming %s, got %v", filepath.Join(dir, tc.link), err)
			}
		})
	}
}

// TestDirInfoAndSyncThroughTheOstreeLink: the top-level link is judged,
// and flushed, as the directory it leads to; a dangling one is missing and
// one out of the root is refused.
func TestDirInfoAndSyncThroughTheOstreeLink(t *testing.T) {
	for _, tc := range []struct {
		name, target string
		mkTarget     bool
		want         func(error) bool
	}{
		{"inside the root", "var/opt", true, func(err error) bool { return err == nil }},
		{"dangling", "var/opt", false, func(err error) bool { return errors.Is(err, os.ErrNotExist) }},
		{"out of the root", "/tmp", false, func(err error) bool { var u *UnsafeError; return errors.As(err, &u) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.mkTarget {
				if err := os.MkdirAll(filepath.Join(dir, tc.target), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(tc.target, filepath.Join(dir, "opt")); err != nil {
				t.Fatal(err)
			}
			r, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			fi, err := r.DirInfo("opt")
			if !tc.want(err) || (err == nil && !fi.IsDir()) {
				t.Errorf("DirInfo: %v, %v", fi, err)
			}
			if err := r.Sync("opt"); !tc.want(err) {
				t.Errorf("Sync: %v", err)
			}
		})
	}
}

// ReadFile holds a file under the root to the host-file cap: a larger one
// is refused, named, before it is read.
func TestReadFileCap(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int64{"small": 10, "big": inputread.HostFile.Cap + 1} {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if data, err := r.ReadFile("small"); err != nil || len(data) != 10 {
		t.Fatalf("small: %d bytes, %v", len(data), err)
	}
	_, err = r.ReadFile("big")
	if !errors.Is(err, inputread.ErrTooLarge) || !strings.Contains(err.Error(), filepath.Join(dir, "big")+" is larger than the 8 MiB cap") {
		t.Fatalf("big: got %v, want the cap error naming the file", err)
	}
}
