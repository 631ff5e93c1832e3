package hosttxn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// TestRecoverSaysOnlyWhatItVerified: Recover's "undone ... back as it was"
// is checked against the journal afterwards; when a directory the
// interrupted run created must stay (someone else put a file in it), the
// message says so instead (issue 19 point 3).
func TestRecoverSaysOnlyWhatItVerified(t *testing.T) {
	const dir = "etc/kubernetes/bootstrap-configs"
	file := dir + "/egress-selector-config.yaml"
	for _, tc := range []struct {
		name     string
		stranger bool
		want     string
	}{
		{name: "undone", want: "so the host is back as it was before it"},
		{name: "a stranger's file keeps the directory", stranger: true, want: "/etc is left behind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			h, err := hostfs.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			// A render killed after it made the directory, before its
			// temporary file was written: it cannot be completed.
			j := &journal{Version: hostlayout.StateVersion, Command: "render", Dirs: []string{"etc", "etc/kubernetes", dir},
				Ops: []journalOp{{Kind: opWrite, Path: file, Placement: hostlayout.PlacementKASEgressConfig, Temp: hostlayout.TempName(file), New: SHA256([]byte("new"))}}}
			if err := writeJournal(h, j); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.stranger {
				if err := os.WriteFile(filepath.Join(root, dir, "theirs.yaml"), []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			msg, err := recoverJournal(h)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("Recover said %q, want it to contain %q", msg, tc.want)
			}
			_, statErr := os.Lstat(filepath.Join(root, dir))
			if gone := os.IsNotExist(statErr); gone == tc.stranger {
				t.Errorf("%s exists: %v, want %v", dir, !gone, tc.stranger)
			}
			if exists(h, hostlayout.JournalPath) {
				t.Errorf("the journal is still there")
			}
		})
	}
}
