package shortroot_test

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
)

// TestDirFitsFromADeepCheckout: run from a working directory over 100
// bytes deep, Dir still makes a root whose longest socket path can be
// listened on, outside that directory.
func TestDirFitsFromADeepCheckout(t *testing.T) {
	deep := shortroot.DeepDir(t, "konnectivity-bundle")
	if len(deep) < 100 {
		t.Fatalf("DeepDir made %s, only %d bytes", deep, len(deep))
	}
	t.Chdir(deep)
	sock := "root/etc/kubernetes/bootstrap-configs/konnectivity-server.socket"
	dir := shortroot.Dir(t, "kbn", sock)
	if shortroot.Under(dir, deep) || !strings.HasPrefix(dir, "/tmp/kbn") {
		t.Fatalf("Dir made %s; want a directory directly under /tmp, not under %s", dir, deep)
	}
	path := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatalf("listening on %s: %v", path, err)
	}
	l.Close()
}

// TestFits: the limit is the kernel's 107 bytes, and the error names the
// socket that does not fit.
func TestFits(t *testing.T) {
	dir := "/tmp/kbx1234567890"
	for _, tc := range []struct {
		name   string
		length int
		ok     bool
	}{
		{"at the limit", shortroot.MaxSocketPath, true},
		{"one over", shortroot.MaxSocketPath + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel := strings.Repeat("s", tc.length-len(dir)-1)
			err := shortroot.Fits(dir, "ok.sock", rel)
			if (err == nil) != tc.ok {
				t.Fatalf("Fits with a %d-byte path: %v, want ok=%t", tc.length, err, tc.ok)
			}
			if err != nil && !strings.Contains(err.Error(), rel) {
				t.Errorf("the error does not name the socket: %v", err)
			}
		})
	}
}

func TestUnder(t *testing.T) {
	for _, tc := range []struct {
		path, dir string
		want      bool
	}{
		{"/a/b/c", "/a/b", true},
		{"/a/b", "/a/b", true},
		{"/a/bc", "/a/b", false},
		{"/tmp/kbn1", "/a/b", false},
		{"/a/..b", "/a", true},
	} {
		if got := shortroot.Under(tc.path, tc.dir); got != tc.want {
			t.Errorf("Under(%q, %q) = %t, want %t", tc.path, tc.dir, got, tc.want)
		}
	}
}
