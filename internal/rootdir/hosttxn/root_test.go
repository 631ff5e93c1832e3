package hosttxn

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNotWritableSaysNeedsRoot: a user other than root denied --root / is
// told the command needs root, not to pick another directory; root denied
// (a read-only mount) is told the directory is not writable, with the reason.
func TestNotWritableSaysNeedsRoot(t *testing.T) {
	for _, tc := range []struct {
		name        string
		err         error
		euid        int
		msg, fix    string
		notInString string
	}{
		{"non-root denied", syscall.EACCES, 1000, "is not writable by uid 1000: render needs root", "run it as root", "existing writable directory"},
		{"root on a read-only mount", syscall.EROFS, 0, "/ is not writable: read-only file system", "pass an existing writable directory", "needs root"},
		{"root denied anyway", syscall.EACCES, 0, "/ is not writable: permission denied", "pass an existing writable directory", "needs root"},
	} {
		e := notWritable("/", tc.err, tc.euid, "render")
		s := e.Error()
		if !strings.Contains(s, tc.msg) || !strings.Contains(e.Fix, tc.fix) || strings.Contains(s, tc.notInString) {
			t.Errorf("%s: %q (fix %q), want %q and %q, without %q", tc.name, s, e.Fix, tc.msg, tc.fix, tc.notInString)
		}
		if !strings.HasPrefix(s, "--root: ") {
			t.Errorf("%s: %q does not name --root", tc.name, s)
		}
	}
}

// TestCheckRoot: each root a session cannot stand on is refused with what
// is wrong, and a usable one comes back absolute.
func TestCheckRoot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, root, want string
	}{
		{"empty", "", "--root: is required"},
		{"missing", filepath.Join(dir, "nope"), "does not exist"},
		{"a file", file, "is a file, not a directory"},
		{"a directory", dir, ""},
	} {
		abs, err := checkRoot(tc.root, true, "render")
		switch {
		case tc.want == "" && (err != nil || abs != dir):
			t.Errorf("%s: %q, %v; want %q", tc.name, abs, err, dir)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}
