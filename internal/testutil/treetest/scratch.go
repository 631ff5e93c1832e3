package treetest

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// AssertNoScratch fails when a temporary or backup name, a staged tree or
// a journal is left under root; when says at which point of the test.
func AssertNoScratch(t testing.TB, root, when string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n := d.Name(); hostlayout.IsScratch(n) || n == path.Base(hostlayout.JournalPath) || strings.Contains(n, hostlayout.StagedMark) {
			t.Errorf("%s: %s is left behind", when, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
