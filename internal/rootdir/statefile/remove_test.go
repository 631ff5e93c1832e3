package statefile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// TestRemove: teardown's last step removes the state file, and the
// state directory's chain only as far as render created it (the state's
// Dirs) and only when it holds nothing but render's own files (ownsOnly:
// the state, the journal, their scratch names); it returns what it removed.
func TestRemove(t *testing.T) {
	chain := []string{"var", "var/lib", hostlayout.StateDir}
	stateDir := "%ROOT%/" + hostlayout.StateDir + "/"
	for _, tc := range []struct {
		name    string
		mkdir   string   // exists before render: "" none
		noState bool     // the state file is already gone
		extra   []string // other files under the root
		dirs    []string // the state's Dirs
		removed []string // what Remove returns, %ROOT% for the root
		kept    []string // what must be left
		gone    []string // what must not be left
	}{{
		name: "render created no directory", mkdir: hostlayout.StateDir,
		removed: []string{"%ROOT%/" + hostlayout.StatePath},
		kept:    []string{hostlayout.StateDir}, gone: []string{hostlayout.StatePath},
	}, {
		name: "render created the state directory", mkdir: "var/lib", dirs: []string{hostlayout.StateDir, "etc/kubernetes"},
		removed: []string{"%ROOT%/" + hostlayout.StatePath, stateDir},
		kept:    []string{"var/lib"}, gone: []string{hostlayout.StateDir},
	}, {
		name: "render created the whole chain", dirs: append([]string{"opt"}, chain...),
		removed: []string{"%ROOT%/" + hostlayout.StatePath, stateDir, "%ROOT%/var/lib/", "%ROOT%/var/"},
		gone:    []string{"var"},
	}, {
		name: "its scratch and journal are render's own", dirs: chain,
		extra:   []string{hostlayout.StateDir + "/.state.json.kb-tmp-0123456789ab", hostlayout.JournalPath},
		removed: []string{"%ROOT%/" + hostlayout.StatePath, stateDir, "%ROOT%/var/lib/", "%ROOT%/var/"},
		gone:    []string{"var"},
	}, {
		name: "someone else's file in the chain keeps it", dirs: chain, extra: []string{"var/lib/theirs/data"},
		removed: []string{"%ROOT%/" + hostlayout.StatePath},
		kept:    []string{hostlayout.StateDir, "var/lib/theirs/data"}, gone: []string{hostlayout.StatePath},
	}, {
		name: "someone else's file in the state directory keeps it", dirs: chain, extra: []string{hostlayout.StateDir + "/notes.txt"},
		removed: []string{"%ROOT%/" + hostlayout.StatePath},
		kept:    []string{hostlayout.StateDir + "/notes.txt"}, gone: []string{hostlayout.StatePath},
	}, {
		name: "a state already gone", mkdir: hostlayout.StateDir, noState: true,
		removed: []string{"%ROOT%/" + hostlayout.StatePath},
		kept:    []string{hostlayout.StateDir},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.mkdir != "" {
				if err := os.MkdirAll(filepath.Join(root, tc.mkdir), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if !tc.noState {
				treetest.WriteRaw(t, root, hostlayout.StatePath, "{}", 0o644)
			}
			for _, rel := range tc.extra {
				treetest.WriteRaw(t, root, rel, "x", 0o644)
			}
			removed, err := Remove(openAt(t, root), tc.dirs)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, r := range tc.removed {
				want = append(want, filepath.Join(root, r[len("%ROOT%"):])+map[bool]string{true: "/"}[r[len(r)-1] == '/'])
			}
			if !slices.Equal(removed, want) {
				t.Errorf("removed %q, want %q", removed, want)
			}
			for _, rel := range tc.kept {
				if _, err := os.Lstat(filepath.Join(root, rel)); err != nil {
					t.Errorf("%s is gone: %v", rel, err)
				}
			}
			for _, rel := range tc.gone {
				if _, err := os.Lstat(filepath.Join(root, rel)); err == nil {
					t.Errorf("%s is left", rel)
				}
			}
			treetest.AssertNoScratch(t, root, "after Remove")
		})
	}
}

// openAt opens root for the test.
func openAt(t *testing.T, root string) *hostfs.Root {
	t.Helper()
	h, err := hostfs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}
