package v1alpha1_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSocketPathLimitIsTheKernels pins the 107-byte socket path rule (see
// ../testdata/*/paths-socket-path-longest and socket-path-too-long) to what
// this kernel actually does: a 107-byte path can be listened on, 108 not.
func TestSocketPathLimitIsTheKernels(t *testing.T) {
	dir := t.TempDir()
	if len(dir) > 100 {
		t.Skipf("temporary directory %s is too long to build 107-byte socket paths in; set TMPDIR shorter", dir)
	}
	for _, tc := range []struct {
		length int
		ok     bool
	}{{107, true}, {108, false}} {
		name := strings.Repeat("s", tc.length-len(dir)-1)
		p := filepath.Join(dir, name)
		if len(p) != tc.length {
			t.Fatalf("built a %d-byte path, want %d", len(p), tc.length)
		}
		l, err := net.Listen("unix", p)
		if err == nil {
			l.Close()
			os.Remove(p)
		}
		if (err == nil) != tc.ok {
			t.Errorf("listening on a %d-byte socket path: err=%v, want ok=%t", tc.length, err, tc.ok)
		}
	}
}
