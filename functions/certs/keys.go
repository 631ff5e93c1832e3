package certs

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"fmt"
	"strings"

	"github.com/cloudflare/cfssl/csr"
)

// keySpec is a key algorithm and size; only FIPS 140-approved choices exist.
type keySpec struct {
	algo string // "ecdsa" or "rsa"
	size int    // curve bits or modulus bits
}

func (k keySpec) String() string {
	if k.algo == "ecdsa" {
		return fmt.Sprintf("ECDSA P-%d", k.size)
	}
	return fmt.Sprintf("RSA %d", k.size)
}

func (k keySpec) request() *csr.KeyRequest {
	return &csr.KeyRequest{A: k.algo, S: k.size}
}

// KeyAlgorithms are the key algorithms CheckKey accepts, the first the
// default.
var KeyAlgorithms = []string{"ecdsa", "rsa"}

// CheckKey validates a key algorithm and size as Options takes them; the
// error is a *FieldError naming KeyAlgorithm or KeySize.
func CheckKey(algorithm string, size int) error {
	_, err := parseKeySpec(algorithm, size)
	return err
}

func parseKeySpec(algo string, size int) (keySpec, error) {
	switch strings.ToLower(algo) {
	case "", "ecdsa":
		if size != 0 && size != 256 {
			return keySpec{}, fieldErr("KeySize", "%d: ECDSA keys are P-256 only; leave the size unset or give 256", size)
		}
		return keySpec{algo: "ecdsa", size: 256}, nil
	case "rsa":
		switch size {
		case 0:
			return keySpec{algo: "rsa", size: 2048}, nil
		case 2048, 3072, 4096:
			return keySpec{algo: "rsa", size: size}, nil
		}
		return keySpec{}, fieldErr("KeySize", "%d: RSA keys must be 2048, 3072 or 4096 bits", size)
	}
	return keySpec{}, fieldErr("KeyAlgorithm", "%q: use %s", algo, strings.Join(KeyAlgorithms, " or "))
}

// specOf describes a public key in keySpec terms; ok is false for keys this
// package never makes.
func specOf(pub crypto.PublicKey) (keySpec, bool) {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if k.Curve == elliptic.P256() {
			return keySpec{algo: "ecdsa", size: 256}, true
		}
		return keySpec{algo: "ecdsa", size: k.Curve.Params().BitSize}, false
	case *rsa.PublicKey:
		return keySpec{algo: "rsa", size: k.N.BitLen()}, true
	}
	return keySpec{algo: fmt.Sprintf("%T", pub)}, false
}
