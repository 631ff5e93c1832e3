package certs

import (
	"crypto/x509"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// inspectCA returns the CA when it can sign this run's leaves, else the
// reason it must be replaced.
func inspectCA(s settings, files map[string][]byte) (loaded, string) {
	ca, reason := loadPair(s.dir, files, hostlayout.CACertFile, hostlayout.CAKeyFile)
	if reason != "" {
		return loaded{}, reason
	}
	path := filepath.Join(s.dir, hostlayout.CACertFile)
	c := ca.cert
	if got, _ := specOf(c.PublicKey); got != s.key {
		return loaded{}, fmt.Sprintf("key algorithm changed from %v to %v", got, s.key)
	}
	if c.Subject.CommonName != caCommonName || !slices.Equal(c.Subject.Organization, []string{organization}) ||
		!c.IsCA || !c.BasicConstraintsValid || c.MaxPathLen != 0 || !c.MaxPathLenZero ||
		c.KeyUsage&x509.KeyUsageCertSign == 0 {
		return loaded{}, fmt.Sprintf("%s is not a %s CA with path length 0 (subject %q)", path, caCommonName, c.Subject)
	}
	if err := c.CheckSignatureFrom(c); err != nil {
		return loaded{}, fmt.Sprintf("%s is not validly self-signed: %v", path, err)
	}
	return ca, timeReason(path, c, s.now)
}

// inspectLeaf returns the reason leaf kind k must be replaced, or "".
func inspectLeaf(s settings, files map[string][]byte, k leafKind, ca *x509.Certificate) string {
	leaf, reason := loadPair(s.dir, files, k.certFn, k.keyFn)
	if reason != "" {
		return reason
	}
	path := filepath.Join(s.dir, k.certFn)
	c := leaf.cert
	if got, _ := specOf(c.PublicKey); got != s.key {
		return fmt.Sprintf("key algorithm changed from %v to %v", got, s.key)
	}
	if err := c.CheckSignatureFrom(ca); err != nil {
		return fmt.Sprintf("%s is not signed by %s", path, filepath.Join(s.dir, hostlayout.CACertFile))
	}
	if c.Subject.CommonName != k.cn || !slices.Equal(c.Subject.Organization, []string{organization}) ||
		c.IsCA || !slices.Equal(c.ExtKeyUsage, []x509.ExtKeyUsage{k.eku}) || len(c.UnknownExtKeyUsage) != 0 {
		return fmt.Sprintf("%s is not a %s certificate for %s only (subject %q)", path, k.cn, extUsageName(k.eku), c.Subject)
	}
	if r := sanReason(s, path, k, c); r != "" {
		return r
	}
	if c.NotAfter.After(ca.NotAfter) {
		return fmt.Sprintf("%s outlives %s", path, filepath.Join(s.dir, hostlayout.CACertFile))
	}
	if r := timeReason(path, c, s.now); r != "" {
		return r
	}
	return verifyReason(s, path, k, c, ca)
}

// sanReason checks that the server names exactly the bootstrap IP and the
// agent names nothing.
func sanReason(s settings, path string, k leafKind, c *x509.Certificate) string {
	want := []net.IP{}
	if k.withIPs {
		want = []net.IP{net.IP(s.ip.AsSlice())}
	}
	if len(c.DNSNames)+len(c.EmailAddresses)+len(c.URIs) == 0 &&
		slices.EqualFunc(c.IPAddresses, want, net.IP.Equal) {
		return ""
	}
	if k.withIPs && len(c.IPAddresses) == 1 && len(c.DNSNames)+len(c.EmailAddresses)+len(c.URIs) == 0 {
		return fmt.Sprintf("bootstrap IP changed from %s to %s", c.IPAddresses[0], s.ip)
	}
	return fmt.Sprintf("%s has SANs IP %v DNS %v, want IP %v", path, c.IPAddresses, c.DNSNames, want)
}

func timeReason(path string, c *x509.Certificate, now time.Time) string {
	switch {
	case now.Before(c.NotBefore):
		return fmt.Sprintf("%s is not valid before %s (did the clock go back?)", path, c.NotBefore.Format(time.RFC3339))
	case !now.Before(c.NotAfter):
		return fmt.Sprintf("%s expired at %s", path, c.NotAfter.Format(time.RFC3339))
	case c.NotAfter.Sub(now) <= renewBefore:
		return fmt.Sprintf("%s expires at %s, in %v or less", path, c.NotAfter.Format(time.RFC3339), renewBefore)
	}
	return ""
}

// verifyReason runs Go's own path validation as the last word, so a
// certificate the checks above missed is still never reused.
func verifyReason(s settings, path string, k leafKind, c, ca *x509.Certificate) string {
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	_, err := c.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: s.now, KeyUsages: []x509.ExtKeyUsage{k.eku}})
	if err != nil {
		return fmt.Sprintf("%s does not verify against %s: %v", path, filepath.Join(s.dir, hostlayout.CACertFile), err)
	}
	return ""
}

func extUsageName(u x509.ExtKeyUsage) string {
	if u == x509.ExtKeyUsageServerAuth {
		return "serverAuth"
	}
	return "clientAuth"
}
