package certs

import (
	"errors"
	"net/netip"
	"os"
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
