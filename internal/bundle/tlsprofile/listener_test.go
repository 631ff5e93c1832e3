package tlsprofile

import (
	"slices"
	"testing"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestFor: on every version, a server with --tls-min-version takes the
// profile's minimum; one without accepts TLS 1.2 and a TLS 1.3 profile is
// a shortfall, whose TLS 1.2 then gets Intermediate's suites rather than
// Go's defaults. Only-TLS-1.3 listeners render no suites.
func TestFor(t *testing.T) {
	profiles := map[string]*configv1.TLSSecurityProfile{
		"Intermediate": nil,
		"Modern":       {Type: configv1.TLSProfileModernType},
		"Custom 1.3":   custom(configv1.VersionTLS13, "TLS_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256"),
		"Custom 1.2":   custom(configv1.VersionTLS12, "ECDHE-RSA-AES128-GCM-SHA256"),
	}
	for _, v := range proxyversion.Versions {
		for name, p := range profiles {
			t.Run(v.Name+"/"+name, func(t *testing.T) {
				s, err := Resolve(p)
				if err != nil {
					t.Fatal(err)
				}
				l := For(s, v)
				tls13Only := s.MinVersion == configv1.VersionTLS13
				switch {
				case v.Has(proxyversion.TLSMinVersion.Flag):
					if l.MinVersion != s.MinVersion || l.Accepts != s.MinVersion || l.Short != nil {
						t.Errorf("%+v, want --tls-min-version=%s and no shortfall", l, s.MinVersion)
					}
				case tls13Only:
					if l.MinVersion != "" || l.Accepts != configv1.VersionTLS12 || l.Short == nil || l.Short.Asked != configv1.VersionTLS13 {
						t.Errorf("%+v, want no flag, TLS 1.2 accepted and a shortfall", l)
					}
				default:
					if l.MinVersion != "" || l.Accepts != configv1.VersionTLS12 || l.Short != nil {
						t.Errorf("%+v, want no flag, TLS 1.2 accepted, no shortfall", l)
					}
				}
				wantSuites := s.Suites
				if l.Accepts == configv1.VersionTLS13 {
					wantSuites = nil
				} else if len(s.Suites) == 0 {
					wantSuites = intermediateSuites
				}
				if !slices.Equal(l.Suites, wantSuites) || (l.Short != nil && l.Short.Borrowed != (len(s.Suites) == 0)) {
					t.Errorf("suites %v (borrowed %+v), want %v", l.Suites, l.Short, wantSuites)
				}
			})
		}
	}
}
