//go:build e2e

package e2e

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// testCA is a throwaway certificate authority for the webhook, the apiserver
// and the fault tests (a foreign CA, a server certificate with the wrong SAN).
type testCA struct {
	cert    *x509.Certificate
	signer  crypto.Signer
	certPEM []byte
}

func newTestCA(t *testing.T, cn string) *testCA {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: cn},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatalf("create CA %s: %v", cn, err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, signer: key, certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// leaf issues a certificate; hosts are IP or DNS SANs.
func (ca *testCA) leaf(t *testing.T, cn string, usage x509.ExtKeyUsage, hosts ...string) (certPEM, keyPEM []byte) {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.signer)
	if err != nil {
		t.Fatalf("issue %s: %v", cn, err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// writeFiles writes name->content into dir (0600, dir 0700).
func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// loadCA reads the CA render wrote (ca.crt, ca.key) to issue certificates
// that differ from the rendered ones in exactly one property. The pair goes
// through tls.X509KeyPair, the loader the product's probe dialer uses too: it
// reads every key form cfssl writes and refuses a key that is not the
// certificate's.
func loadCA(t *testing.T, dir string) *testCA {
	t.Helper()
	files := readFiles(t, dir, "ca.crt", "ca.key")
	pair, err := tls.X509KeyPair(files["ca.crt"], files["ca.key"])
	if err != nil {
		t.Fatalf("ca.crt and ca.key in %s: %v", dir, err)
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0]) // Leaf is nil under GODEBUG=x509keypairleaf=0
	if err != nil {
		t.Fatal(err)
	}
	signer, ok := pair.PrivateKey.(crypto.Signer)
	if !ok {
		t.Fatalf("ca.key in %s: %T is not a signing key", dir, pair.PrivateKey)
	}
	return &testCA{cert: cert, signer: signer, certPEM: files["ca.crt"]}
}
