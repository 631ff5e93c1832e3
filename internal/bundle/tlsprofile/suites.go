package tlsprofile

// What a cipher name of a profile is to the agent listener. The profiles
// (configv1.TLSProfiles, and a Custom profile's ciphers) name suites the
// way OpenSSL does; proxy-server's --cipher-suites takes Go's names, and
// only those Go's tls.CipherSuites lists: it looks each name up there and
// turns one it does not find into suite 0, which serves nothing, without a
// word (apiserver-network-proxy cmd/server/app tlsCipherSuites, v0.28 and
// v0.36 alike).
type support int

const (
	// served: a TLS 1.0 to 1.2 suite --cipher-suites takes.
	served support = iota
	// tls13: a TLS 1.3 suite. Go enables all of them whenever TLS 1.3 is
	// spoken and they cannot be chosen ("Has no effect on TLS1.3").
	tls13
	// insecure: Go implements it only among tls.InsecureCipherSuites,
	// which --cipher-suites does not look up.
	insecure
	// missing: Go does not implement it at all.
	missing
)

// why is what each support level means for a name the profile lists and
// the listener cannot serve, for messages and docs/config.md.
var why = map[support]string{
	insecure: "Go implements it only among its insecure suites, which proxy-server's --cipher-suites does not accept",
	missing:  "Go's crypto/tls does not implement it",
}

// suite is one cipher suite as a profile names it and as Go names it.
type suite struct {
	openSSL string  // the profile's name (OpenSSL's)
	goName  string  // crypto/tls's name (IANA's)
	support support // what the listener can do with it
	fips    bool    // a TLS 1.0 to 1.2 suite Go in FIPS 140 mode negotiates (TLS 1.3 suites are Go's to choose)
}

// suites are every name a profile may give: the union of the four
// profiles of openshift/api config/v1 (Mozilla's guidelines), the
// DHE and RC4 suites older profiles and OpenSSL configurations list, and
// for each its IANA name (RFC 8446, RFC 5289, RFC 7905, RFC 5246),
// with Go 1.26's verdict, which TestSuitesMatchCryptoTLS holds.
var suites = []suite{
	{"TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256", tls13, false},
	{"TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384", tls13, false},
	{"TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256", tls13, false},

	{"ECDHE-ECDSA-AES128-GCM-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", served, true},
	{"ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", served, true},
	{"ECDHE-ECDSA-AES256-GCM-SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", served, true},
	{"ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", served, true},
	{"ECDHE-ECDSA-CHACHA20-POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", served, false},
	{"ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", served, false},
	{"ECDHE-ECDSA-AES128-SHA", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", served, false},
	{"ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", served, false},
	{"ECDHE-ECDSA-AES256-SHA", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", served, false},
	{"ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", served, false},

	{"ECDHE-ECDSA-AES128-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", insecure, false},
	{"ECDHE-RSA-AES128-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", insecure, false},
	{"AES128-GCM-SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256", insecure, false},
	{"AES256-GCM-SHA384", "TLS_RSA_WITH_AES_256_GCM_SHA384", insecure, false},
	{"AES128-SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA256", insecure, false},
	{"AES128-SHA", "TLS_RSA_WITH_AES_128_CBC_SHA", insecure, false},
	{"AES256-SHA", "TLS_RSA_WITH_AES_256_CBC_SHA", insecure, false},
	{"DES-CBC3-SHA", "TLS_RSA_WITH_3DES_EDE_CBC_SHA", insecure, false},
	{"ECDHE-RSA-DES-CBC3-SHA", "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA", insecure, false},
	{"ECDHE-ECDSA-RC4-SHA", "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA", insecure, false},
	{"ECDHE-RSA-RC4-SHA", "TLS_ECDHE_RSA_WITH_RC4_128_SHA", insecure, false},
	{"RC4-SHA", "TLS_RSA_WITH_RC4_128_SHA", insecure, false},

	{"ECDHE-ECDSA-AES256-SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384", missing, false},
	{"ECDHE-RSA-AES256-SHA384", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", missing, false},
	{"AES256-SHA256", "TLS_RSA_WITH_AES_256_CBC_SHA256", missing, false},
	{"DHE-RSA-AES128-GCM-SHA256", "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", missing, false},
	{"DHE-RSA-AES256-GCM-SHA384", "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", missing, false},
	{"DHE-RSA-CHACHA20-POLY1305", "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256", missing, false},
	{"DHE-RSA-AES128-SHA256", "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256", missing, false},
	{"DHE-RSA-AES256-SHA256", "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256", missing, false},
}

// byOpenSSL finds a profile's name in suites.
func byOpenSSL(name string) (suite, bool) {
	for _, s := range suites {
		if s.openSSL == name {
			return s, true
		}
	}
	return suite{}, false
}

// byGoName finds Go's name of a suite, for the fix of a Custom profile
// that wrote Go's name where OpenSSL's belongs.
func byGoName(name string) (suite, bool) {
	for _, s := range suites {
		if s.goName == name {
			return s, true
		}
	}
	return suite{}, false
}
