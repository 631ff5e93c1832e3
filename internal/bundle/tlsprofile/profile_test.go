package tlsprofile

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
)

// The Go names of the suites Intermediate and Old share, in their order.
var intermediateSuites = []string{
	"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
	"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
	"TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
}

var tls13Suites = []string{"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"}

func custom(min configv1.TLSProtocolVersion, ciphers ...string) *configv1.TLSSecurityProfile {
	return &configv1.TLSSecurityProfile{Type: configv1.TLSProfileCustomType,
		Custom: &configv1.CustomTLSProfile{TLSProfileSpec: configv1.TLSProfileSpec{Ciphers: ciphers, MinTLSVersion: min}}}
}

// TestResolve: each profile becomes the minimum and Go's names of the
// suites the listener serves, in the profile's order, with what it cannot
// serve dropped and said.
func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      *configv1.TLSSecurityProfile
		want    Settings
		dropped []string
	}{
		{"absent is Intermediate", nil, Settings{Profile: Default, MinVersion: configv1.VersionTLS12, Suites: intermediateSuites, TLS13: tls13Suites}, nil},
		{"empty type is Intermediate", &configv1.TLSSecurityProfile{}, Settings{Profile: Default, MinVersion: configv1.VersionTLS12, Suites: intermediateSuites, TLS13: tls13Suites}, nil},
		{"Intermediate", &configv1.TLSSecurityProfile{Type: configv1.TLSProfileIntermediateType, Intermediate: &configv1.IntermediateTLSProfile{}},
			Settings{Profile: configv1.TLSProfileIntermediateType, MinVersion: configv1.VersionTLS12, Suites: intermediateSuites, TLS13: tls13Suites}, nil},
		{"Modern", &configv1.TLSSecurityProfile{Type: configv1.TLSProfileModernType},
			Settings{Profile: configv1.TLSProfileModernType, MinVersion: configv1.VersionTLS13, TLS13: tls13Suites}, nil},
		{"Old", &configv1.TLSSecurityProfile{Type: configv1.TLSProfileOldType},
			Settings{Profile: configv1.TLSProfileOldType, MinVersion: configv1.VersionTLS10, TLS13: tls13Suites, Suites: append(slices.Clone(intermediateSuites),
				"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA")},
			[]string{"ECDHE-ECDSA-AES128-SHA256", "ECDHE-RSA-AES128-SHA256", "ECDHE-ECDSA-AES256-SHA384", "ECDHE-RSA-AES256-SHA384",
				"AES128-GCM-SHA256", "AES256-GCM-SHA384", "AES128-SHA256", "AES256-SHA256", "AES128-SHA", "AES256-SHA", "DES-CBC3-SHA"}},
		{"Custom", custom(configv1.VersionTLS12, "ECDHE-RSA-AES256-GCM-SHA384", "TLS_AES_128_GCM_SHA256", "DHE-RSA-AES128-GCM-SHA256"),
			Settings{Profile: configv1.TLSProfileCustomType, MinVersion: configv1.VersionTLS12, Suites: []string{"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"}, TLS13: []string{"TLS_AES_128_GCM_SHA256"}},
			[]string{"DHE-RSA-AES128-GCM-SHA256"}},
		{"Custom at TLS 1.3 needs no TLS 1.2 suite", custom(configv1.VersionTLS13, "TLS_AES_256_GCM_SHA384"),
			Settings{Profile: configv1.TLSProfileCustomType, MinVersion: configv1.VersionTLS13, TLS13: []string{"TLS_AES_256_GCM_SHA384"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Resolve(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var dropped []string
			for _, d := range got.Dropped {
				if d.Why == "" {
					t.Errorf("%s dropped without a reason", d.Name)
				}
				dropped = append(dropped, d.Name)
			}
			got.Dropped = nil
			if !equal(got, tc.want) || !slices.Equal(dropped, tc.dropped) {
				t.Errorf("got %+v dropping %v\nwant %+v dropping %v", got, dropped, tc.want, tc.dropped)
			}
		})
	}
}

func equal(a, b Settings) bool {
	return a.Profile == b.Profile && a.MinVersion == b.MinVersion && slices.Equal(a.Suites, b.Suites) && slices.Equal(a.TLS13, b.TLS13)
}

// TestResolveRefuses: a profile that cannot be followed as written is an
// error naming the field inside the profile and the fix.
func TestResolveRefuses(t *testing.T) {
	for _, tc := range []struct {
		name       string
		in         *configv1.TLSSecurityProfile
		field, fix string
	}{
		{"unknown type", &configv1.TLSSecurityProfile{Type: "Strict"}, "type", "use one of: Old, Intermediate, Modern, Custom"},
		{"Custom without custom", &configv1.TLSSecurityProfile{Type: configv1.TLSProfileCustomType}, "custom.ciphers", "list the ciphers"},
		{"Custom without ciphers", custom(configv1.VersionTLS12), "custom.ciphers", "list the ciphers"},
		{"Custom without minTLSVersion", custom("", "ECDHE-RSA-AES128-GCM-SHA256"), "custom.minTLSVersion", "use one of: VersionTLS10"},
		{"unknown cipher", custom(configv1.VersionTLS12, "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES129-GCM-SHA256"), "custom.ciphers[1]", "use OpenSSL's name"},
		{"Go's name", custom(configv1.VersionTLS12, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"), "custom.ciphers[0]", "write it as OpenSSL names it, ECDHE-RSA-AES128-GCM-SHA256"},
		{"nothing left for TLS 1.2", custom(configv1.VersionTLS12, "AES128-SHA", "TLS_AES_128_GCM_SHA256"), "custom.ciphers", "add a suite such as"},
		{"a member of another type", &configv1.TLSSecurityProfile{Type: configv1.TLSProfileModernType, Custom: &configv1.CustomTLSProfile{}}, "custom", "remove custom, or set type: Custom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Resolve(tc.in)
			var errs Errors
			if !errors.As(err, &errs) || len(errs) != 1 {
				t.Fatalf("Resolve = %v, want one Error", err)
			}
			if errs[0].Field != tc.field || !strings.Contains(errs[0].Fix, tc.fix) || errs[0].Message == "" {
				t.Errorf("got %+v, want field %s and a fix with %q", errs[0], tc.field, tc.fix)
			}
		})
	}
}

// TestSame: profiles OpenShift reads alike are the same whatever members
// they spell out; a different type, minimum or cipher order is not.
func TestSame(t *testing.T) {
	modern := &configv1.TLSSecurityProfile{Type: configv1.TLSProfileModernType}
	for _, tc := range []struct {
		name string
		a, b *configv1.TLSSecurityProfile
		same bool
	}{
		{"member spelled out", modern, &configv1.TLSSecurityProfile{Type: configv1.TLSProfileModernType, Modern: &configv1.ModernTLSProfile{}}, true},
		{"none and Intermediate", nil, &configv1.TLSSecurityProfile{Type: configv1.TLSProfileIntermediateType}, true},
		{"another type", modern, &configv1.TLSSecurityProfile{Type: configv1.TLSProfileOldType}, false},
		{"Custom's order", custom(configv1.VersionTLS12, "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256"),
			custom(configv1.VersionTLS12, "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256"), false},
		{"Custom's minimum", custom(configv1.VersionTLS12, "ECDHE-RSA-AES128-GCM-SHA256"), custom(configv1.VersionTLS13, "ECDHE-RSA-AES128-GCM-SHA256"), false},
		{"unresolvable, as written", &configv1.TLSSecurityProfile{Type: "Strict"}, &configv1.TLSSecurityProfile{Type: "Strict"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Same(tc.a, tc.b); got != tc.same {
				t.Errorf("Same = %v, want %v", got, tc.same)
			}
		})
	}
}

// TestErrorsQuoteBounded: a name a hostile profile gives is quoted with its
// controls and bidi characters escaped, and cut, never echoed whole.
func TestErrorsQuoteBounded(t *testing.T) {
	long := strings.Repeat("A", 200000)
	for _, tc := range []struct {
		name string
		in   *configv1.TLSSecurityProfile
		says string
	}{
		{"a long type", &configv1.TLSSecurityProfile{Type: configv1.TLSProfileType(long)}, `unknown profile type "` + strings.Repeat("A", 64) + `"... (199936 more bytes)`},
		{"a long minimum", custom(configv1.TLSProtocolVersion(long), "ECDHE-RSA-AES128-GCM-SHA256"), `unknown TLS version "` + strings.Repeat("A", 64) + `"... (199936 more bytes)`},
		{"a long cipher", custom(configv1.VersionTLS12, long), `"` + strings.Repeat("A", 64) + `"... (199936 more bytes) is not a cipher name`},
		{"controls and bidi", custom(configv1.VersionTLS12, "A\x1b[2J\u202eB\nfake: line"), `"A\x1b[2J\u202eB\nfake: line" is not a cipher name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Resolve(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.says) || len(err.Error()) > 1000 {
				t.Errorf("Resolve = %.300v; want an error of under 1000 bytes saying %s", err, tc.says)
			}
		})
	}
}

// TestResolveListsANameOnce: a Custom profile naming a suite twice, or
// 10,000 times, renders it once.
func TestResolveListsANameOnce(t *testing.T) {
	names := slices.Repeat([]string{"ECDHE-RSA-AES128-GCM-SHA256", "TLS_AES_128_GCM_SHA256", "AES128-SHA"}, 10000)
	s, err := Resolve(custom(configv1.VersionTLS12, names...))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Suites) != 1 || len(s.TLS13) != 1 || len(s.Dropped) != 1 {
		t.Errorf("Resolve = %d suites, %d TLS 1.3, %d dropped; want each once", len(s.Suites), len(s.TLS13), len(s.Dropped))
	}
}

// TestResolveBoundsUnknownNames: 10,000 names no table knows are ten
// errors and one that counts the rest, not 10,000.
func TestResolveBoundsUnknownNames(t *testing.T) {
	names := make([]string, 10000)
	for i := range names {
		names[i] = fmt.Sprintf("BAD%d", i)
	}
	_, err := Resolve(custom(configv1.VersionTLS12, names...))
	var es Errors
	if !errors.As(err, &es) || len(es) != maxUnknown+1 || es[0].Field != "custom.ciphers[0]" ||
		!strings.Contains(es[maxUnknown].Message, "9990 more names") {
		t.Errorf("Resolve = %d errors, the last %+v; want %d naming the first and one counting 9990 more", len(es), es[len(es)-1], maxUnknown+1)
	}
}
