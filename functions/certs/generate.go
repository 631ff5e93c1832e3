package certs

import (
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"fmt"
	"net"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/cloudflare/cfssl/csr"
	"github.com/cloudflare/cfssl/log"
)

func init() {
	// cfssl's csr package logs INFO lines to stderr for every key; a
	// bootstrap script must print nothing on success. Failures still reach
	// the caller as returned errors, so nothing below critical is lost.
	log.Level = log.LevelCritical
}

// pair is one PEM certificate and its PEM private key.
type pair struct{ cert, key []byte }

// leafKind is what a leaf certificate is for.
type leafKind struct {
	name    string // used in messages
	cn      string
	eku     x509.ExtKeyUsage // the one extended key usage
	certFn  string
	keyFn   string
	withIPs bool
}

// Both leaves carry digitalSignature as their only key usage: that is all
// ECDHE key exchange needs (all Go TLS 1.2+ suites the ANP binaries offer),
// and openssl's sslserver/sslclient purposes accept it.
var (
	serverLeaf = leafKind{name: "server", cn: serverCommonName, eku: x509.ExtKeyUsageServerAuth,
		certFn: hostlayout.ServerCertFile, keyFn: hostlayout.ServerKeyFile, withIPs: true}
	agentLeaf = leafKind{name: "agent", cn: agentCommonName, eku: x509.ExtKeyUsageClientAuth,
		certFn: hostlayout.AgentCertFile, keyFn: hostlayout.AgentKeyFile}
)

// window is the validity period of a new certificate.
func window(s settings, limit time.Time) (notBefore, notAfter time.Time) {
	now := s.now.Truncate(time.Second)
	notBefore, notAfter = now.Add(-backdate), now.Add(s.validity)
	if !limit.IsZero() && notAfter.After(limit) {
		notAfter = limit // no leaf outlives its CA
	}
	return notBefore, notAfter
}

// request is a new private key and the certificate request cfssl's csr
// package made for it: the request carries the bundle subject and its
// signature proves the key.
type request struct {
	keyPEM []byte
	csr    *x509.CertificateRequest
}

func newRequest(s settings, cn string) (request, error) {
	csrPEM, keyPEM, err := csr.ParseRequest(&csr.CertificateRequest{
		CN:         cn,
		Names:      []csr.Name{{O: organization}},
		KeyRequest: s.key.request(),
	})
	if err != nil {
		return request{}, fmt.Errorf("generate %s key (%v): %w", cn, s.key, err)
	}
	block, _ := pem.Decode(csrPEM)
	if block == nil {
		return request{}, fmt.Errorf("certificate request for %s: no PEM block", cn)
	}
	req, err := x509.ParseCertificateRequest(block.Bytes)
	if err == nil {
		err = req.CheckSignature()
	}
	if err != nil {
		return request{}, fmt.Errorf("certificate request for %s: %w", cn, err)
	}
	return request{keyPEM: keyPEM, csr: req}, nil
}

// template is what every certificate of the bundle shares: the request's
// subject and key, the validity window, basic constraints (critical, as
// with every certificate this package has made) and the key identifier.
func template(r request, notBefore, notAfter time.Time) (*x509.Certificate, error) {
	ski, err := subjectKeyID(r.csr.PublicKey)
	if err != nil {
		return nil, err
	}
	return &x509.Certificate{
		Subject:               r.csr.Subject,
		NotBefore:             notBefore.UTC(),
		NotAfter:              notAfter.UTC(),
		BasicConstraintsValid: true,
		SubjectKeyId:          ski,
	}, nil
}

// subjectKeyID is RFC 7093 method 1: the leftmost 160 bits of the SHA-256
// of the subjectPublicKey bits. It is computed here rather than left to
// x509.CreateCertificate, which fills it only for CAs and, with
// GODEBUG=x509sha256skid=0, with SHA-1, which FIPS 140-only mode forbids.
func subjectKeyID(pub crypto.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, fmt.Errorf("subject key identifier: %w", err)
	}
	var spki struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}
	if _, err := asn1.Unmarshal(der, &spki); err != nil {
		return nil, fmt.Errorf("subject key identifier: %w", err)
	}
	sum := sha256.Sum256(spki.PublicKey.Bytes)
	return sum[:20], nil
}

// sign signs tmpl for pub with the issuer's key. The signature algorithm
// follows the issuer's key as cfssl chose it (ECDSA P-256: SHA-256; RSA
// 2048/3072/4096: SHA-256/384/512). A nil serial makes crypto/x509 draw 20
// random bytes with the top bit clear, as cfssl did (RFC 5280 4.1.2.2).
func sign(tmpl, issuer *x509.Certificate, pub crypto.PublicKey, issuerKey crypto.Signer) ([]byte, error) {
	spec, ok := specOf(issuerKey.Public())
	if !ok {
		return nil, fmt.Errorf("issuer key %v is not one this package makes", spec)
	}
	tmpl.SignatureAlgorithm = spec.request().SigAlgo()
	der, err := x509.CreateCertificate(rand.Reader, tmpl, issuer, pub, issuerKey)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}

// newCA makes the self-signed CA: path length 0, certSign and cRLSign.
func newCA(s settings) (pair, error) {
	r, err := newRequest(s, caCommonName)
	if err != nil {
		return pair{}, err
	}
	key, err := parseKeyPEM(r.keyPEM)
	if err != nil {
		return pair{}, fmt.Errorf("parse new CA key: %w", err)
	}
	notBefore, notAfter := window(s, time.Time{})
	tmpl, err := template(r, notBefore, notAfter)
	if err != nil {
		return pair{}, err
	}
	tmpl.IsCA, tmpl.MaxPathLen, tmpl.MaxPathLenZero = true, 0, true
	tmpl.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageCRLSign
	certPEM, err := sign(tmpl, tmpl, r.csr.PublicKey, key)
	if err != nil {
		return pair{}, fmt.Errorf("self-sign CA: %w", err)
	}
	return pair{cert: certPEM, key: r.keyPEM}, nil
}

// newLeaf makes a key and a certificate of kind k signed by the CA.
func newLeaf(s settings, k leafKind, caCert *x509.Certificate, caKey crypto.Signer) (pair, error) {
	r, err := newRequest(s, k.cn)
	if err != nil {
		return pair{}, err
	}
	notBefore, notAfter := window(s, caCert.NotAfter)
	tmpl, err := template(r, notBefore, notAfter)
	if err != nil {
		return pair{}, err
	}
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	tmpl.ExtKeyUsage = []x509.ExtKeyUsage{k.eku}
	if k.withIPs {
		tmpl.IPAddresses = []net.IP{net.IP(s.ip.AsSlice())}
	}
	certPEM, err := sign(tmpl, caCert, r.csr.PublicKey, caKey)
	if err != nil {
		return pair{}, fmt.Errorf("sign %s certificate: %w", k.name, err)
	}
	return pair{cert: certPEM, key: r.keyPEM}, nil
}
