package certs

import (
	"bytes"
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

// ensure plans the set in opts.Dir and writes it there with writeSet.
func ensure(t testing.TB, opts Options) *Result {
	t.Helper()
	r, err := Plan(opts)
	if err == nil {
		err = writeSet(opts.Dir, r)
	}
	if err != nil {
		t.Fatalf("plan and write %+v: %v", opts, err)
	}
	return r
}

// writeSet leaves dir as the host writers' journaled writer does
// (internal/writers/certset, whose tests hold that writer, journal and
// all; this package cannot import it): parents 0755, the directory made a
// safe place (SecureDir), and each file whose bytes or mode differ replaced
// by a new one with its mode. What these tests look at is Plan's decision.
func writeSet(dir string, r *Result) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(dir, DirMode); err != nil && !os.IsExist(err) {
		return err
	}
	if err := SecureDir(dir); err != nil {
		return err
	}
	for name, data := range r.Files {
		p := filepath.Join(dir, name)
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() == ModeOf(name) {
			if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, data) {
				continue
			}
		}
		tmp := filepath.Join(dir, ".new-"+name)
		if err := os.WriteFile(tmp, data, ModeOf(name)); err != nil {
			return err
		}
		if err := os.Chmod(tmp, ModeOf(name)); err != nil {
			return err
		}
		if err := os.Rename(tmp, p); err != nil {
			return err
		}
	}
	return nil
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
