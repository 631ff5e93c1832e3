package certs

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// previousRelease holds roots rendered by the release that signed with
// cfssl (testdata/previous-release/README.md).
const previousRelease = "../../testdata/previous-release"

// subjectKeyBits is the subjectPublicKey BIT STRING's content, derived
// from the key itself rather than from the encoded certificate.
func subjectKeyBits(t *testing.T, c *x509.Certificate) []byte {
	t.Helper()
	switch pub := c.PublicKey.(type) {
	case *ecdsa.PublicKey:
		b, err := pub.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return b
	case *rsa.PublicKey:
		return x509.MarshalPKCS1PublicKey(pub)
	}
	t.Fatalf("unexpected key %T", c.PublicKey)
	return nil
}

// extensionShape is each extension's OID and criticality, in order.
func extensionShape(c *x509.Certificate) []string {
	var out []string
	for _, e := range c.Extensions {
		out = append(out, fmt.Sprintf("%v critical=%v", e.Id, e.Critical))
	}
	return out
}

func previousCert(t *testing.T, algo, name string) *x509.Certificate {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(previousRelease, algo, "opt/openshift/tls/konnectivity", name))
	if err != nil {
		t.Fatal(err)
	}
	return mustCert(t, b)
}

// TestSigning pins what signing with crypto/x509 promises (docs/certificates.md): the
// RFC 7093 method 1 key identifier on all three certificates, the
// authority key identifier of each leaf naming the CA, 20-byte positive
// serials, the signature algorithm cfssl chose for the key, and the same
// extensions with the same criticality as the cfssl-signed certificates
// of the previous release.
func TestSigning(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		algo string
		size int
		want x509.SignatureAlgorithm
	}{
		{"ecdsa", 256, x509.ECDSAWithSHA256},
		{"rsa", 2048, x509.SHA256WithRSA},
		{"rsa", 3072, x509.SHA384WithRSA},
		{"rsa", 4096, x509.SHA512WithRSA},
	} {
		t.Run(fmt.Sprintf("%s%d", tc.algo, tc.size), func(t *testing.T) {
			t.Parallel()
			opts := options(t, "192.0.2.10")
			opts.KeyAlgorithm, opts.KeySize = tc.algo, tc.size
			r, err := Plan(opts)
			if err != nil {
				t.Fatal(err)
			}
			ca := mustCert(t, r.Files[hostlayout.CACertFile])
			serials := map[string]bool{}
			for _, name := range []string{hostlayout.CACertFile, hostlayout.ServerCertFile, hostlayout.AgentCertFile} {
				c := mustCert(t, r.Files[name])
				sum := sha256.Sum256(subjectKeyBits(t, c))
				if !slices.Equal(c.SubjectKeyId, sum[:20]) {
					t.Errorf("%s SubjectKeyId %x, want the leftmost 160 bits of SHA-256 %x", name, c.SubjectKeyId, sum[:20])
				}
				wantAKI := ca.SubjectKeyId
				if name == hostlayout.CACertFile {
					wantAKI = nil // self-signed: no authority key identifier, as before
				}
				if !slices.Equal(c.AuthorityKeyId, wantAKI) {
					t.Errorf("%s AuthorityKeyId %x, want %x", name, c.AuthorityKeyId, wantAKI)
				}
				if c.SerialNumber.Sign() <= 0 || c.SerialNumber.BitLen() > 159 || serials[c.SerialNumber.String()] {
					t.Errorf("%s serial %x: want positive, at most 20 bytes with the top bit clear, unique", name, c.SerialNumber)
				}
				serials[c.SerialNumber.String()] = true
				if c.SignatureAlgorithm != tc.want {
					t.Errorf("%s signed with %v, want %v", name, c.SignatureAlgorithm, tc.want)
				}
				if got, old := extensionShape(c), extensionShape(previousCert(t, tc.algo, name)); !slices.Equal(got, old) {
					t.Errorf("%s extensions %q, the previous release's %q", name, got, old)
				}
			}
		})
	}
}

// TestPreviousReleaseFixtures: the fixtures are what they claim, cfssl's
// SHA-1 key identifiers, so the compatibility tests that use them test
// something.
func TestPreviousReleaseFixtures(t *testing.T) {
	for _, algo := range []string{"ecdsa", "rsa"} {
		for _, name := range []string{hostlayout.CACertFile, hostlayout.ServerCertFile, hostlayout.AgentCertFile} {
			c := previousCert(t, algo, name)
			if sum := sha1.Sum(subjectKeyBits(t, c)); !slices.Equal(c.SubjectKeyId, sum[:]) {
				t.Errorf("%s/%s SubjectKeyId %x is not the SHA-1 of its key", algo, name, c.SubjectKeyId)
			}
		}
	}
}
