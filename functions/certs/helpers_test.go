package certs

import (
	"crypto/x509"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// t0 is the fixed clock of most tests; certificates made at t0 are checked
// at t0 too, so nothing depends on the wall clock.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func at(t time.Time) func() time.Time { return func() time.Time { return t } }

// options is a certificate directory under a fresh temp dir, made at t0.
func options(t testing.TB, ip string) Options {
	return Options{Dir: filepath.Join(t.TempDir(), "tls", "konnectivity"), BootstrapIP: netip.MustParseAddr(ip), Now: at(t0)}
}

func ensure(t testing.TB, opts Options) *Result {
	t.Helper()
	r, err := Ensure(opts)
	if err != nil {
		t.Fatalf("Ensure(%+v): %v", opts, err)
	}
	return r
}

func mustCert(t testing.TB, pemBytes []byte) *x509.Certificate {
	t.Helper()
	c, err := parseCertPEM(pemBytes)
	if err != nil {
		t.Fatalf("parse certificate: %v", err)
	}
	return c
}

// openssl runs the real openssl binary; a missing one skips the test saying
// how to get it, or fails it in CI (tooltest.System).
func openssl(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, err := exec.Command(tooltest.System(t, "openssl", "openssl"), args...).CombinedOutput()
	return string(out), err
}

// opensslVerify checks cert against ca at the test clock's time.
func opensslVerify(t *testing.T, ca, cert string, now time.Time, extra ...string) (string, error) {
	args := append([]string{"verify", "-x509_strict", "-attime", strconv.FormatInt(now.Unix(), 10), "-CAfile", ca}, extra...)
	return openssl(t, append(args, cert)...)
}

// mtimes returns every file's modification time in dir.
func mtimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	for _, n := range hostlayout.CertFileNames {
		fi, err := os.Stat(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = fi.ModTime()
	}
	return out
}

// ageFiles moves every file's mtime an hour back so a rewrite shows even
// on file systems with coarse timestamps.
func ageFiles(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, n := range hostlayout.CertFileNames {
		if err := os.Chtimes(filepath.Join(dir, n), old, old); err != nil {
			t.Fatal(err)
		}
	}
}
