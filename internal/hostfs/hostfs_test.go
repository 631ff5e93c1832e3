package hostfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
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
