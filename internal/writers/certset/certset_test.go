package certset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// TestConfine: certs takes only a --dir beneath --root that no link leads
// to, and names what is wrong with any other.
func TestConfine(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "etc", "real"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "etc", "link")); err != nil {
		t.Fatal(err)
	}
	h, err := hostfs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, tc := range []struct {
		name, dir, rel, err string
		beneath             bool
	}{
		{name: "beneath", dir: filepath.Join(root, "etc", "real"), rel: "etc/real", beneath: true},
		{name: "not made yet", dir: filepath.Join(root, "etc", "new"), rel: "etc/new", beneath: true},
		{name: "outside", dir: outside, err: "is not beneath --root"},
		{name: "the root's parent", dir: filepath.Dir(root), err: "is not beneath --root"},
		{name: "through a link", dir: filepath.Join(root, "etc", "link"), err: "--dir: ", beneath: true},
	} {
		rel, err := confine(h, tc.dir)
		var outsideErr *NotBeneathError
		switch {
		case tc.err == "" && (err != nil || rel != tc.rel):
			t.Errorf("%s: %q, %v; want %q", tc.name, rel, err, tc.rel)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		case err != nil && errors.As(err, &outsideErr) == tc.beneath:
			t.Errorf("%s: NotBeneathError %v, want %v", tc.name, !tc.beneath, !tc.beneath)
		}
	}
}
