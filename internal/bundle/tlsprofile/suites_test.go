package tlsprofile

import (
	"crypto/tls"
	"slices"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
)

// TestSuitesMatchCryptoTLS holds the table's verdicts against the crypto/tls
// this module is built with, which the proxy binaries the tests run are
// built with too: a served suite is one tls.CipherSuites lists for TLS 1.2
// (what --cipher-suites looks names up in), a TLS 1.3 one is listed for
// TLS 1.3 only, an insecure one is in tls.InsecureCipherSuites alone, a
// missing one in neither. Every suite Go knows has a row.
func TestSuitesMatchCryptoTLS(t *testing.T) {
	secure, weak := map[string]*tls.CipherSuite{}, map[string]bool{}
	for _, c := range tls.CipherSuites() {
		secure[c.Name] = c
	}
	for _, c := range tls.InsecureCipherSuites() {
		weak[c.Name] = true
	}
	rows := map[string]bool{}
	for _, s := range suites {
		rows[s.goName] = true
		c := secure[s.goName]
		var got support
		switch {
		case c != nil && slices.Equal(c.SupportedVersions, []uint16{tls.VersionTLS13}):
			got = tls13
		case c != nil:
			got = served
		case weak[s.goName]:
			got = insecure
		default:
			got = missing
		}
		if got != s.support {
			t.Errorf("%s (%s): the table says %d, crypto/tls says %d (0 served, 1 TLS 1.3, 2 insecure, 3 missing)", s.openSSL, s.goName, s.support, got)
		}
	}
	for name := range secure {
		if !rows[name] {
			t.Errorf("crypto/tls serves %s, which no row names: add its OpenSSL name", name)
		}
	}
	for name := range weak {
		if !rows[name] {
			t.Errorf("crypto/tls has the insecure %s, which no row names: add its OpenSSL name", name)
		}
	}
}

// TestEveryProfileNameIsKnown: each cipher openshift/api's profiles name
// has a row, so a predefined profile never drops a name unexplained, and
// the rows' names are unique.
func TestEveryProfileNameIsKnown(t *testing.T) {
	for typ, spec := range configv1.TLSProfiles {
		for _, name := range spec.Ciphers {
			if _, ok := byOpenSSL(name); !ok {
				t.Errorf("profile %s names %s, which the suite table lacks", typ, name)
			}
		}
	}
	seen := map[string]bool{}
	for _, s := range suites {
		if seen[s.openSSL] || (s.goName != s.openSSL && seen[s.goName]) {
			t.Errorf("%s / %s is named twice", s.openSSL, s.goName)
		}
		seen[s.openSSL], seen[s.goName] = true, true
	}
}
