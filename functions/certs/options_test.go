package certs

import (
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

func TestInvalidOptions(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name  string
		opts  Options
		field string
		msg   string
	}{
		{"no dir", Options{BootstrapIP: netip.MustParseAddr("192.0.2.1")}, "Dir", "empty"},
		{"no IP", Options{Dir: dir}, "BootstrapIP", "not set"},
		{"loopback v4", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("127.0.0.1")}, "BootstrapIP", "loopback"},
		{"loopback v6", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("::1")}, "BootstrapIP", "loopback"},
		{"unspecified", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("0.0.0.0")}, "BootstrapIP", "unspecified"},
		{"unspecified v6", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("::")}, "BootstrapIP", "unspecified"},
		{"multicast", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("224.0.0.5")}, "BootstrapIP", "multicast"},
		{"link-local", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("169.254.1.1")}, "BootstrapIP", "link-local"},
		{"link-local v6 with zone", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("fe80::1%eth0")}, "BootstrapIP", "zone"},
		{"global v6 with zone", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("2001:db8::1%eth0")}, "BootstrapIP", "zone"},
		{"unknown algorithm", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("192.0.2.1"), KeyAlgorithm: "ed25519"}, "KeyAlgorithm", "use ecdsa or rsa"},
		{"ecdsa 384", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("192.0.2.1"), KeySize: 384}, "KeySize", "P-256 only"},
		{"rsa 1024", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("192.0.2.1"), KeyAlgorithm: "rsa", KeySize: 1024}, "KeySize", "2048, 3072 or 4096"},
		{"validity 1h", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("192.0.2.1"), Validity: time.Hour}, "Validity", "more than 1h0m0s"},
		{"negative validity", Options{Dir: dir, BootstrapIP: netip.MustParseAddr("192.0.2.1"), Validity: -time.Hour}, "Validity", "more than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Plan(tc.opts)
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("Plan error %v, want a FieldError on %s containing %q", err, tc.field, tc.msg)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a rejected Plan left files: %v", entries)
			}
		})
	}
}

// TestDirIsAFile: a file where the directory should be is an error, and
// nothing is written.
func TestDirIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "konnectivity")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Ensure(Options{Dir: file, BootstrapIP: netip.MustParseAddr("192.0.2.1")})
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("Ensure into a file: %v, want a 'not a directory' error", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "x" {
		t.Errorf("the file was changed: %q", b)
	}
}

func TestModes(t *testing.T) {
	opts := options(t, "192.0.2.10")
	ensure(t, opts)
	checkModes(t, opts.Dir)
	if fi, err := os.Stat(filepath.Dir(opts.Dir)); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("parent directory: %v %v, want 0755", fi.Mode(), err)
	}
	// Loosened modes make the place unsafe (TrustReason): everything is
	// regenerated and the modes repaired; then the files are reused as they are.
	os.Chmod(opts.Dir, 0o755)
	os.Chmod(filepath.Join(opts.Dir, hostlayout.CAKeyFile), 0o644)
	if r := ensure(t, opts); !r.Generated {
		t.Fatal("certificates reused from a directory open to others")
	}
	checkModes(t, opts.Dir)
	before := mtimes(t, opts.Dir)
	if r := ensure(t, opts); r.Generated {
		t.Fatalf("regenerated after the repair: %s", r.Reason)
	}
	for n, m := range mtimes(t, opts.Dir) {
		if !m.Equal(before[n]) {
			t.Errorf("%s rewritten on reuse", n)
		}
	}
	if entries, _ := os.ReadDir(opts.Dir); len(entries) != len(hostlayout.CertFileNames) {
		t.Errorf("directory holds %d entries, want exactly the %d files (no temporaries)", len(entries), len(hostlayout.CertFileNames))
	}
}

func checkModes(t *testing.T, dir string) {
	t.Helper()
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != DirMode {
		t.Errorf("%s: mode %v (%v), want %v", dir, fi.Mode().Perm(), err, DirMode)
	}
	for _, n := range hostlayout.CertFileNames {
		fi, err := os.Stat(filepath.Join(dir, n))
		want := CertMode
		if strings.HasSuffix(n, ".key") {
			want = 0o600
		}
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", n, fi.Mode().Perm(), err, want)
		}
	}
}

// TestPlanWritesNothing: Plan decides in memory only.
func TestPlanWritesNothing(t *testing.T) {
	opts := options(t, "192.0.2.10")
	r, err := Plan(opts)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Generated || len(r.Files) != len(hostlayout.CertFileNames) {
		t.Fatalf("Plan on an empty directory: Generated=%v files=%d", r.Generated, len(r.Files))
	}
	if _, err := os.Stat(opts.Dir); !os.IsNotExist(err) {
		t.Errorf("Plan created %s (stat: %v)", opts.Dir, err)
	}
}
