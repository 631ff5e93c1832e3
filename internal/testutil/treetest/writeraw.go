package treetest

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// WriteRaw puts a file at rel under root, and its parent directories,
// outside any writer of ours: what another program or a damaged disk left.
func WriteRaw(t testing.TB, root, rel, data string, mode fs.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}
