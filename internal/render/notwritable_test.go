package render

import (
	"errors"
	"strings"
	"syscall"
	"testing"
)

// TestNotWritableSaysNeedsRoot: a user other than root denied --root / is
// told render needs root, not to pick another directory; root denied (a
// read-only mount) is told the directory is not writable, with the reason.
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
		e := notWritable("/", tc.err, tc.euid)
		s := e.Error()
		if !strings.Contains(s, tc.msg) || !strings.Contains(e.Fix, tc.fix) || strings.Contains(s, tc.notInString) {
			t.Errorf("%s: %q (fix %q), want %q and %q, without %q", tc.name, s, e.Fix, tc.msg, tc.fix, tc.notInString)
		}
		if !errors.As(error(e), new(*InputError)) {
			t.Errorf("%s: not an InputError", tc.name)
		}
	}
}
