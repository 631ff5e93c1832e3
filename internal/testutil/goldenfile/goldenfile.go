// Package goldenfile compares test output with reviewed files under
// testdata/, and rewrites them in update mode: the -update flag of a test
// binary that imports this package, or KB_UPDATE_GOLDEN=1 in the
// environment, which reaches every package of one `go test ./...` run
// (`make golden`). The flag is declared here only, so every package honours
// the same switch.
package goldenfile

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// UpdateEnv names the environment variable that turns update mode on for
// every test binary at once; go test passes the environment to each
// package, whereas a flag it does not declare fails that package.
const UpdateEnv = "KB_UPDATE_GOLDEN"

var updateFlag = flag.Bool("update", false, "rewrite golden files and test fixtures from the current output (also "+UpdateEnv+"=1)")

// Update reports whether this run rewrites golden files and fixtures: -update
// was given or KB_UPDATE_GOLDEN is 1. Any other value than "", 0 or 1 fails
// t, so a mistyped switch does not silently compare instead.
func Update(t testing.TB) bool {
	t.Helper()
	switch v := os.Getenv(UpdateEnv); v {
	case "", "0":
		return *updateFlag
	case "1":
		return true
	default:
		t.Fatalf("%s=%q: set it to 1 to rewrite golden files, or unset it", UpdateEnv, v)
		return false
	}
}

// Assert fails t unless got equals the file at path, showing a unified diff.
// In update mode (Update) it writes got to path instead (creating directories).
func Assert(t testing.TB, path string, got []byte) {
	t.Helper()
	AssertRefresh(t, path, got, "make golden")
}

// AssertRefresh is Assert whose failure names refresh, the command that
// rewrites this one file (a narrower one than make golden).
func AssertRefresh(t testing.TB, path string, got []byte, refresh string) {
	t.Helper()
	if Update(t) {
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
		t.Fatalf("%v (run %s, or the test with -update, to create it)", err, refresh)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (review, then run %s):\n%s", path, refresh, Diff(t, want, got))
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
