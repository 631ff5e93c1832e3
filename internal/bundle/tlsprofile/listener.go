package tlsprofile

import (
	configv1 "github.com/openshift/api/config/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// Listener is the agent listener of one proxy version following Settings:
// what its flags are rendered with and what it then accepts.
type Listener struct {
	// Settings are the profile the listener follows.
	Settings Settings
	// MinVersion is --tls-min-version's value; "" for a version whose
	// server has no such flag.
	MinVersion configv1.TLSProtocolVersion
	// Suites are --cipher-suites' values; none renders no flag, and none
	// is rendered when only TLS 1.3 is accepted, where they do nothing.
	Suites []string
	// Accepts is the oldest TLS version the listener then accepts.
	Accepts configv1.TLSProtocolVersion
	// Short is what the profile asks and this version cannot do; nil
	// when it follows the profile.
	Short *Shortfall
}

// Shortfall is a profile's minimum a version cannot set: the listener
// accepts older TLS than asked, with the suites it renders.
type Shortfall struct {
	Asked, Accepts configv1.TLSProtocolVersion
	// Borrowed: the profile names no suite for the version the listener
	// accepts, so Default's suites, the cluster's own, are rendered.
	Borrowed bool
}

// For is the listener of version v following s. A server with
// --tls-min-version takes the profile's minimum; one without is fixed at
// proxyversion.DefaultTLSMinVersion, and a profile asking more is a
// Shortfall, never a flag the server would refuse.
func For(s Settings, v *proxyversion.Version) Listener {
	l := Listener{Settings: s, Accepts: s.MinVersion, Suites: s.Suites}
	if v.Has(proxyversion.TLSMinVersion.Flag) {
		l.MinVersion = s.MinVersion
	} else if fixed := configv1.TLSProtocolVersion(proxyversion.DefaultTLSMinVersion); Order(s.MinVersion, fixed) > 0 {
		l.Accepts = fixed
		l.Short = &Shortfall{Asked: s.MinVersion, Accepts: fixed}
	}
	switch {
	case !v.Has(proxyversion.FlagCipherSuites) || l.Accepts == configv1.VersionTLS13:
		l.Suites = nil
	case len(l.Suites) == 0 && l.Short != nil:
		// Modern names TLS 1.3 suites only: rather than Go's defaults,
		// TLS 1.2 gets the suites of the cluster's default profile.
		def, _ := Resolve(nil)
		l.Suites, l.Short.Borrowed = def.Suites, true
	}
	return l
}
