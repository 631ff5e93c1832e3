package tlsprofile

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/fips140"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"
)

// fipsChildEnv makes the test binary the child of TestFIPS: GODEBUG=fips140
// is read once at process start.
const fipsChildEnv = "KB_TLSPROFILE_FIPS_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(fipsChildEnv) != "" {
		os.Exit(fipsChild())
	}
	os.Exit(m.Run())
}

// TestFIPS runs in FIPS 140-only mode: a TLS 1.2 handshake with each served
// suite succeeds exactly when the table says the mode negotiates it, every
// predefined profile passes CheckFIPS, and a Custom profile of refused
// suites gets an Error, not a panic.
func TestFIPS(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fipsChildEnv+"=1", "GODEBUG=fips140=only")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasSuffix(string(out), "fips140 enforced\n") {
		t.Fatalf("FIPS 140-only child: %v\n%s", err, out)
	}
}

func fipsChild() int {
	if !fips140.Enforced() {
		fmt.Println("FIPS 140-only mode is not enforced")
		return 1
	}
	bad := 0
	for _, s := range suites {
		if s.support != served {
			continue
		}
		err := handshake(s)
		if (err == nil) != s.fips {
			fmt.Printf("%s: handshake error %v, the table says FIPS negotiates it: %v\n", s.goName, err, s.fips)
			bad++
		}
	}
	for typ := range configv1.TLSProfiles {
		s, err := Resolve(&configv1.TLSSecurityProfile{Type: typ})
		if err == nil {
			err = s.CheckFIPS()
		}
		if err != nil {
			fmt.Printf("profile %s refused in FIPS mode: %v\n", typ, err)
			bad++
		}
	}
	s, err := Resolve(custom(configv1.VersionTLS12, "ECDHE-RSA-CHACHA20-POLY1305", "ECDHE-ECDSA-AES128-SHA"))
	var errs Errors
	if err != nil || !errors.As(s.CheckFIPS(), &errs) || errs[0].Field != "custom.ciphers" {
		fmt.Printf("a Custom profile of refused suites: %v, CheckFIPS %v\n", err, s.CheckFIPS())
		bad++
	}
	if bad > 0 {
		return 1
	}
	fmt.Println("fips140 enforced")
	return 0
}

// handshake makes a TLS 1.2 handshake offering only suite s, against a
// server of the same key type that allows only s.
func handshake(s suite) error {
	id := suiteID(s.goName)
	cert, err := selfSigned(strings.Contains(s.goName, "ECDSA"))
	if err != nil {
		return fmt.Errorf("certificate: %w", err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, CipherSuites: []uint16{id}, MaxVersion: tls.VersionTLS12})
	if err != nil {
		return err
	}
	defer ln.Close()
	go func() {
		if c, err := ln.Accept(); err == nil {
			_ = c.(*tls.Conn).Handshake()
			c.Close()
		}
	}()
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, "tcp", ln.Addr().String(),
		&tls.Config{InsecureSkipVerify: true, CipherSuites: []uint16{id}, MaxVersion: tls.VersionTLS12}) // #nosec G402 -- only the suite is under test
	if err != nil {
		return err
	}
	return c.Close()
}

func suiteID(name string) uint16 {
	for _, c := range tls.CipherSuites() {
		if c.Name == name {
			return c.ID
		}
	}
	panic(name + " is not served")
}

// selfSigned is a P-256 or RSA-2048 key and a SHA-256 certificate for it,
// both approved in FIPS 140-only mode.
func selfSigned(ec bool) (tls.Certificate, error) {
	var key crypto.Signer
	var err error
	if ec {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	} else {
		key, err = rsa.GenerateKey(rand.Reader, 2048)
	}
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
