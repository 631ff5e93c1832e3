// Package treetest records what a directory tree holds, so a test can say
// "the host is as before" (or "as an uninterrupted run left it") and name
// the first path where that is not so.
package treetest

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Level is how much of a file a Snapshot records beside its mode.
type Level int

const (
	// Shape records only which paths exist and their modes: for roots
	// whose keys differ from run to run.
	Shape Level = iota
	// Content adds each file's bytes.
	Content
	// Exact adds each file's inode and mtime: an undo must put back the
	// very file that was there, not a copy with the same bytes.
	Exact
)

// Entry is one path of a tree as Snapshot records it.
type Entry struct {
	Mode  fs.FileMode
	Sum   [32]byte
	Ino   uint64
	MTime int64
}

// Snapshot walks root without following links and records every path
// below it at the given level.
func Snapshot(t testing.TB, root string, level Level) map[string]Entry {
	t.Helper()
	out := map[string]Entry{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		e := Entry{Mode: fi.Mode()}
		if level >= Content {
			if e.Sum, err = sum(p, fi.Mode()); err != nil {
				return err
			}
		}
		if level == Exact && !d.IsDir() {
			e.Ino, e.MTime = fi.Sys().(*syscall.Stat_t).Ino, fi.ModTime().UnixNano()
		}
		out[rel] = e
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot of %s: %v", root, err)
	}
	return out
}

// sum is a file's bytes or a link's target, hashed; a directory has none.
func sum(p string, mode fs.FileMode) ([32]byte, error) {
	var data []byte
	var err error
	switch {
	case mode.IsRegular():
		data, err = os.ReadFile(p)
	case mode&fs.ModeSymlink != 0:
		var target string
		target, err = os.Readlink(p)
		data = []byte(target)
	}
	return sha256.Sum256(data), err
}

// AssertSame fails t for every path missing from got, extra in got, or
// recorded differently; what names the two trees in the messages.
func AssertSame(t testing.TB, what string, want, got map[string]Entry) {
	t.Helper()
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s differ: %s is missing", what, p)
		case g.Mode != w.Mode:
			t.Errorf("%s differ: %s has mode %v, want %v", what, p, g.Mode, w.Mode)
		case g.Sum != w.Sum:
			t.Errorf("%s differ: %s has other content", what, p)
		case g != w:
			t.Errorf("%s differ: %s has inode %d and mtime %d, want %d and %d (rewritten, not put back)", what, p, g.Ino, g.MTime, w.Ino, w.MTime)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s differ: %s is extra", what, p)
		}
	}
}
