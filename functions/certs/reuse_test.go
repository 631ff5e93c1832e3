package certs

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"maps"
	"math/big"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// TestReuse: a second run with the same inputs changes nothing on disk,
// neither bytes nor modification times.
func TestReuse(t *testing.T) {
	t.Parallel()
	for _, tc := range shapes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := options(t, tc.ip)
			opts.KeyAlgorithm, opts.KeySize = tc.algo, tc.size
			first := ensure(t, opts)
			ageFiles(t, opts.Dir)
			before := mtimes(t, opts.Dir)
			opts.Now = at(t0.Add(22 * time.Hour)) // later, but more than renewBefore left
			second := ensure(t, opts)
			if second.Generated {
				t.Fatalf("second run regenerated: %s", second.Reason)
			}
			if want := "certificates for " + tc.ip + " in " + opts.Dir + " are valid until"; !bytes.HasPrefix([]byte(second.Reason), []byte(want)) {
				t.Errorf("reuse reason %q, want prefix %q", second.Reason, want)
			}
			for _, n := range hostlayout.CertFileNames {
				onDisk, err := os.ReadFile(filepath.Join(opts.Dir, n))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(first.Files[n], second.Files[n]) || !bytes.Equal(onDisk, first.Files[n]) {
					t.Errorf("%s changed on reuse", n)
				}
			}
			if after := mtimes(t, opts.Dir); !maps.EqualFunc(before, after, time.Time.Equal) {
				t.Errorf("modification times changed on reuse: %v -> %v", before, after)
			}
		})
	}
}

// mutation damages a fresh certificate directory (made at t0 for
// 192.0.2.10) and may change the options of the second run.
type mutation func(t *testing.T, o *Options)

func truncate(name string) mutation {
	return func(t *testing.T, o *Options) {
		p := filepath.Join(o.Dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b[:len(b)/2], 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestRegenerate: each reason to regenerate is detected, said, and only
// what is bad is replaced (all six files when the CA goes).
func TestRegenerate(t *testing.T) {
	all := hostlayout.CertFileNames
	server := []string{hostlayout.ServerCertFile, hostlayout.ServerKeyFile}
	agent := []string{hostlayout.AgentCertFile, hostlayout.AgentKeyFile}
	cases := []struct {
		name    string
		mutate  mutation
		reason  string // regexp; DIR stands for the directory
		changed []string
	}{
		{"IP changed", func(t *testing.T, o *Options) { o.BootstrapIP = netip.MustParseAddr("192.0.2.11") },
			`^bootstrap IP changed from 192\.0\.2\.10 to 192\.0\.2\.11$`, server},
		{"IP changed to IPv6", func(t *testing.T, o *Options) { o.BootstrapIP = netip.MustParseAddr("2001:db8::11") },
			`^bootstrap IP changed from 192\.0\.2\.10 to 2001:db8::11$`, server},
		{"CA expires within the hour", func(t *testing.T, o *Options) { o.Now = at(t0.Add(23*time.Hour + 1*time.Minute)) },
			`^DIR/ca\.crt expires at 2026-01-03T03:04:05Z, in 1h0m0s or less$`, all},
		{"CA expired", func(t *testing.T, o *Options) { o.Now = at(t0.Add(25 * time.Hour)) },
			`^DIR/ca\.crt expired at`, all},
		{"clock went back", func(t *testing.T, o *Options) { o.Now = at(t0.Add(-time.Hour)) },
			`^DIR/ca\.crt is not valid before 2026-01-02T02:59:05Z \(did the clock go back\?\)$`, all},
		{"truncated CA certificate", truncate(hostlayout.CACertFile), `^DIR/ca\.crt is damaged or truncated \(no complete PEM block\)$`, all},
		{"truncated CA key", truncate(hostlayout.CAKeyFile), `^DIR/ca\.key is damaged or truncated`, all},
		{"truncated server key", truncate(hostlayout.ServerKeyFile), `^DIR/server\.key is damaged or truncated`, server},
		{"truncated agent certificate", truncate(hostlayout.AgentCertFile), `^DIR/agent\.crt is damaged or truncated`, agent},
		{"data after the PEM block", func(t *testing.T, o *Options) {
			appendTo(t, filepath.Join(o.Dir, hostlayout.AgentKeyFile), "garbage\n")
		}, `^DIR/agent\.key is damaged or truncated \(unexpected data after the EC PRIVATE KEY block\)$`, agent},
		{"agent certificate missing", func(t *testing.T, o *Options) { os.Remove(filepath.Join(o.Dir, hostlayout.AgentCertFile)) },
			`^DIR/agent\.crt is missing$`, agent},
		{"server key swapped with agent key", func(t *testing.T, o *Options) {
			copyFile(t, filepath.Join(o.Dir, hostlayout.AgentKeyFile), filepath.Join(o.Dir, hostlayout.ServerKeyFile))
		}, `^DIR/server\.key does not match DIR/server\.crt$`, server},
		{"server pair from another CA", func(t *testing.T, o *Options) {
			other := ensure(t, options(t, "192.0.2.10"))
			for _, n := range server {
				os.WriteFile(filepath.Join(o.Dir, n), other.Files[n], 0o600)
			}
		}, `^DIR/server\.crt is not signed by DIR/ca\.crt$`, server},
		{"agent and server swapped", func(t *testing.T, o *Options) {
			copyFile(t, filepath.Join(o.Dir, hostlayout.ServerCertFile), filepath.Join(o.Dir, hostlayout.AgentCertFile))
			copyFile(t, filepath.Join(o.Dir, hostlayout.ServerKeyFile), filepath.Join(o.Dir, hostlayout.AgentKeyFile))
		}, `^DIR/agent\.crt is not a konnectivity-agent certificate for clientAuth only`, agent},
		{"key algorithm changed", func(t *testing.T, o *Options) { o.KeyAlgorithm = "rsa" },
			`^key algorithm changed from ECDSA P-256 to RSA 2048$`, all},
		{"server leaf expiring on its own", func(t *testing.T, o *Options) {
			forgeLeaf(t, o.Dir, hostlayout.ServerCertFile, hostlayout.ServerKeyFile, t0.Add(30*time.Minute), x509.ExtKeyUsageServerAuth, "192.0.2.10")
		}, `^DIR/server\.crt expires at 2026-01-02T03:34:05Z, in 1h0m0s or less$`, server},
		{"agent leaf outlives the CA", func(t *testing.T, o *Options) {
			forgeLeaf(t, o.Dir, hostlayout.AgentCertFile, hostlayout.AgentKeyFile, t0.Add(48*time.Hour), x509.ExtKeyUsageClientAuth, "")
		}, `^DIR/agent\.crt outlives DIR/ca\.crt$`, agent},
		{"IP changed and agent damaged", func(t *testing.T, o *Options) {
			o.BootstrapIP = netip.MustParseAddr("192.0.2.12")
			truncate(hostlayout.AgentKeyFile)(t, o)
		}, `^bootstrap IP changed from 192\.0\.2\.10 to 192\.0\.2\.12; DIR/agent\.key is damaged or truncated`, append(slices.Clone(server), agent...)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := options(t, "192.0.2.10")
			first := ensure(t, opts)
			tc.mutate(t, &opts)
			damaged := readAll(t, opts.Dir)
			r := ensure(t, opts)
			want := regexp.MustCompile(regexp.MustCompile(`DIR`).ReplaceAllLiteralString(tc.reason, regexp.QuoteMeta(opts.Dir)))
			if !r.Generated || !want.MatchString(r.Reason) {
				t.Fatalf("Generated=%v Reason=%q, want a regeneration matching %s", r.Generated, r.Reason, want)
			}
			for _, n := range hostlayout.CertFileNames {
				same := bytes.Equal(r.Files[n], first.Files[n]) && bytes.Equal(r.Files[n], damaged[n])
				if slices.Contains(tc.changed, n) == same {
					t.Errorf("%s: unchanged=%v, want changed=%v", n, same, slices.Contains(tc.changed, n))
				}
			}
			if again := ensure(t, opts); again.Generated {
				t.Errorf("third run regenerated again: %s", again.Reason)
			}
		})
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := readFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// forgeLeaf replaces a leaf with one signed by the directory's CA but with
// a chosen notAfter, which this package itself never produces.
func forgeLeaf(t *testing.T, dir, certFn, keyFn string, notAfter time.Time, eku x509.ExtKeyUsage, ip string) {
	t.Helper()
	files := readAll(t, dir)
	ca := mustCert(t, files[hostlayout.CACertFile])
	caKey, err := parseKeyPEM(files[hostlayout.CAKeyFile])
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	cn := map[x509.ExtKeyUsage]string{x509.ExtKeyUsageServerAuth: serverCommonName, x509.ExtKeyUsageClientAuth: agentCommonName}[eku]
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(42), Subject: pkix.Name{CommonName: cn, Organization: []string{organization}},
		NotBefore: t0.Add(-backdate), NotAfter: notAfter, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{eku}, BasicConstraintsValid: true,
	}
	if ip != "" {
		tmpl.IPAddresses = mustCert(t, files[hostlayout.ServerCertFile]).IPAddresses
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, certFn), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(filepath.Join(dir, keyFn), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
}

// TestNoLeafOutlivesCA: a leaf made under a CA with little time left is cut
// to the CA's notAfter instead of getting the full validity.
func TestNoLeafOutlivesCA(t *testing.T) {
	opts := options(t, "192.0.2.10")
	first := ensure(t, opts)
	opts.Now, opts.BootstrapIP = at(t0.Add(20*time.Hour)), netip.MustParseAddr("192.0.2.11")
	r := ensure(t, opts)
	ca, server := mustCert(t, first.Files[hostlayout.CACertFile]), mustCert(t, r.Files[hostlayout.ServerCertFile])
	if !r.Generated || !bytes.Equal(r.Files[hostlayout.CACertFile], first.Files[hostlayout.CACertFile]) {
		t.Fatalf("want a new server certificate under the old CA, got Generated=%v Reason=%q", r.Generated, r.Reason)
	}
	if !server.NotAfter.Equal(ca.NotAfter) {
		t.Errorf("server notAfter %v, want the CA's %v (not %v)", server.NotAfter, ca.NotAfter, t0.Add(44*time.Hour))
	}
	if want := t0.Add(20*time.Hour - backdate); !server.NotBefore.Equal(want) {
		t.Errorf("server notBefore %v, want %v (backdated from the run's clock)", server.NotBefore, want)
	}
}
