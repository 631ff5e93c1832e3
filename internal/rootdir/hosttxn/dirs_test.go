package hosttxn

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// TestMissingDirs: the missing directories of every chain, parents first,
// each once; a file where a directory belongs is refused by name.
func TestMissingDirs(t *testing.T) {
	for _, tc := range []struct {
		name     string
		existing []string // directories; a name ending in "!" is a file
		rels     []string
		want     []string
		errHas   string
	}{
		{name: "nothing there", rels: []string{"a/b/c"}, want: []string{"a", "a/b", "a/b/c"}},
		{name: "a parent there", existing: []string{"a"}, rels: []string{"a/b/c"}, want: []string{"a/b", "a/b/c"}},
		{name: "all there", existing: []string{"a/b/c"}, rels: []string{"a/b/c", "a/b"}},
		{name: "chains sharing parents", existing: []string{"x"}, rels: []string{"a/d", "a/b/c", "x/y", "a-z"}, want: []string{"a", "a-z", "a/b", "a/b/c", "a/d", "x/y"}},
		{name: "a file where a directory belongs", existing: []string{"a", "a/b!"}, rels: []string{"a/b/c"}, errHas: "/a/b is a file where a directory should be"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, e := range tc.existing {
				if rel, ok := strings.CutSuffix(e, "!"); ok {
					treetest.WriteRaw(t, root, rel, "x", 0o644)
				} else if err := os.MkdirAll(filepath.Join(root, e), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			got, err := MissingDirs(openRoot(t, root), tc.rels...)
			if tc.errHas != "" {
				var unsafe *hostfs.UnsafeError
				if !errors.As(err, &unsafe) || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("got %v, want an UnsafeError with %q", err, tc.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("MissingDirs = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestCompare: what writing data with a mode over what is on disk does,
// and the hash of what is there.
func TestCompare(t *testing.T) {
	const rel = "etc/f.yaml"
	for _, tc := range []struct {
		name   string
		plant  func(t *testing.T, root string)
		mode   fs.FileMode
		action Action
		old    string
		err    func(error) bool
	}{
		{name: "absent", plant: func(*testing.T, string) {}, mode: 0o644, action: Create},
		{name: "same bytes, same mode", plant: plantAt(rel, "data", 0o644), mode: 0o644, action: Unchanged, old: SHA256([]byte("data"))},
		{name: "same bytes, wider mode", plant: plantAt(rel, "data", 0o644), mode: 0o600, action: Update, old: SHA256([]byte("data"))},
		{name: "other bytes", plant: plantAt(rel, "old", 0o644), mode: 0o644, action: Update, old: SHA256([]byte("old"))},
		{name: "a directory", plant: func(t *testing.T, root string) {
			if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
				t.Fatal(err)
			}
		}, mode: 0o644, err: func(err error) bool { return errors.Is(err, ErrIsDir) }},
		{name: "a link", plant: func(t *testing.T, root string) {
			plantAt("etc/target", "data", 0o644)(t, root)
			if err := os.Symlink("target", filepath.Join(root, rel)); err != nil {
				t.Fatal(err)
			}
		}, mode: 0o644, err: hostfs.IsLinkError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, "etc"), 0o755); err != nil {
				t.Fatal(err)
			}
			tc.plant(t, root)
			action, old, err := Compare(openRoot(t, root), rel, []byte("data"), tc.mode)
			if tc.err != nil {
				if err == nil || !tc.err(err) {
					t.Fatalf("Compare = %s, %q, %v; want the error of %s", action, old, err, tc.name)
				}
				return
			}
			if err != nil || action != tc.action || old != tc.old {
				t.Errorf("Compare = %s, %q, %v; want %s, %q", action, old, err, tc.action, tc.old)
			}
		})
	}
}

func plantAt(rel, data string, mode fs.FileMode) func(t *testing.T, root string) {
	return func(t *testing.T, root string) {
		t.Helper()
		treetest.WriteRaw(t, root, rel, data, mode)
	}
}
