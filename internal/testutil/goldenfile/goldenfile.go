// Package goldenfile compares test output with reviewed files under
// testdata/, and rewrites them when a test runs with -update.
package goldenfile

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Assert fails t unless got equals the file at path, showing a unified diff.
// With update it writes got to path instead (creating directories).
func Assert(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (review, then rerun with -update):\n%s", path, Diff(t, want, got))
	}
}

// Diff is `diff -u want got`, for failure messages.
func Diff(t testing.TB, want, got []byte) string {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "want"), filepath.Join(dir, "got")
	if os.WriteFile(a, want, 0o644) != nil || os.WriteFile(b, got, 0o644) != nil {
		return "(could not write the diff inputs)\n--- got\n" + string(got)
	}
	out, err := exec.Command("diff", "-u", a, b).CombinedOutput()
	if err != nil && len(out) == 0 {
		return "(diff failed: " + err.Error() + ")\n--- got\n" + string(got)
	}
	return string(out)
}
