package certs

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"path/filepath"
	"strings"
)

// loaded is a parsed certificate and its private key.
type loaded struct {
	cert *x509.Certificate
	key  crypto.Signer
}

// loadPair parses one certificate/key pair from files. A non-empty reason
// means the pair cannot be used and names the file at fault.
func loadPair(dir string, files map[string][]byte, certFn, keyFn string) (loaded, string) {
	certPEM, ok := files[certFn]
	if !ok {
		return loaded{}, filepath.Join(dir, certFn) + " is missing"
	}
	keyPEM, ok := files[keyFn]
	if !ok {
		return loaded{}, filepath.Join(dir, keyFn) + " is missing"
	}
	cert, err := parseCertPEM(certPEM)
	if err != nil {
		return loaded{}, fmt.Sprintf("%s is damaged or truncated (%v)", filepath.Join(dir, certFn), err)
	}
	key, err := parseKeyPEM(keyPEM)
	if err != nil {
		return loaded{}, fmt.Sprintf("%s is damaged or truncated (%v)", filepath.Join(dir, keyFn), err)
	}
	pub, ok := cert.PublicKey.(interface{ Equal(crypto.PublicKey) bool })
	if !ok || !pub.Equal(key.Public()) {
		return loaded{}, fmt.Sprintf("%s does not match %s", filepath.Join(dir, keyFn), filepath.Join(dir, certFn))
	}
	return loaded{cert: cert, key: key}, ""
}

// CheckFile reports whether a file of the certificate directory parses as
// what its name says (a .crt one certificate, anything else one private key),
// so render refuses a damaged file with the parser that reuse relies on.
func CheckFile(name string, data []byte) error {
	var err error
	if strings.HasSuffix(name, ".crt") {
		_, err = parseCertPEM(data)
	} else {
		_, err = parseKeyPEM(data)
	}
	if err != nil {
		return fmt.Errorf("damaged or truncated (%w)", err)
	}
	return nil
}

// onePEM decodes exactly one PEM block of one of the wanted types; a
// truncated file has no complete block, a spliced one has extra data.
func onePEM(b []byte, want ...string) (*pem.Block, error) {
	block, rest := pem.Decode(b)
	if block == nil {
		return nil, fmt.Errorf("no complete PEM block")
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, fmt.Errorf("unexpected data after the %s block", block.Type)
	}
	for _, w := range want {
		if block.Type == w {
			return block, nil
		}
	}
	return nil, fmt.Errorf("PEM block is %q, want %q", block.Type, want)
}

func parseCertPEM(b []byte) (*x509.Certificate, error) {
	block, err := onePEM(b, "CERTIFICATE")
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(block.Bytes)
}

// parseKeyPEM reads the PKCS#1/SEC 1 keys cfssl writes, and PKCS#8.
func parseKeyPEM(b []byte) (crypto.Signer, error) {
	block, err := onePEM(b, "EC PRIVATE KEY", "RSA PRIVATE KEY", "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	var key any
	switch block.Type {
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, err
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("%T is not a signing key", key)
	}
	return signer, nil
}
