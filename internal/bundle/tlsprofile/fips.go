package tlsprofile

import (
	"crypto/fips140"
	"fmt"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
)

// FIPSRefused are the suites of s (Go's names) that Go in FIPS 140 mode
// does not negotiate: crypto/tls then keeps to the approved ones on its
// own, so they stay rendered and are simply never chosen.
func (s Settings) FIPSRefused() []string {
	var out []string
	for _, name := range s.Suites {
		if c, _ := byGoName(name); !c.fips {
			out = append(out, name)
		}
	}
	return out
}

// CheckFIPS is the one profile FIPS 140 mode cannot follow: one that
// allows TLS 1.2 while every TLS 1.2 suite it names is one the mode
// refuses, so no TLS 1.2 handshake could succeed. It is checked only when
// this process runs in FIPS 140 mode (GODEBUG=fips140=on or only), which
// is how a FIPS install runs render (docs/certificates.md, FIPS).
func (s Settings) CheckFIPS() error {
	if !fips140.Enabled() {
		return nil
	}
	return s.checkFIPS()
}

func (s Settings) checkFIPS() error {
	refused := s.FIPSRefused()
	if s.MinVersion == configv1.VersionTLS13 || len(refused) < len(s.Suites) {
		return nil
	}
	return Errors{{Field: "custom.ciphers", Message: fmt.Sprintf("this runs in FIPS 140 mode, which negotiates none of the TLS 1.2 suites %s, yet minTLSVersion %s allows TLS 1.2",
		strings.Join(refused, ", "), s.MinVersion),
		Fix: "add an approved suite (ECDHE-ECDSA-AES128-GCM-SHA256, ECDHE-RSA-AES128-GCM-SHA256, ECDHE-ECDSA-AES256-GCM-SHA384 or ECDHE-RSA-AES256-GCM-SHA384), or set minTLSVersion: VersionTLS13"}}
}
