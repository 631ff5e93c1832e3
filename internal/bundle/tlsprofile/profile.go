// Package tlsprofile reads the cluster's TLS security profile (OpenShift's
// APIServer spec.tlsSecurityProfile, whose definitions are openshift/api's
// configv1.TLSProfiles) into what the proxy-server's agent listener can
// take: a minimum TLS version and Go's names of the suites, with every name
// the listener cannot serve dropped and said (suites.go), and, per proxy
// version, the flags that render it (listener.go).
package tlsprofile

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	configv1 "github.com/openshift/api/config/v1"
)

// Default is the profile of a cluster that names none: OpenShift's
// APIServer default.
const Default = configv1.TLSProfileIntermediateType

// Settings is a profile as the agent listener can follow it.
type Settings struct {
	// Profile is the profile's type (Default when none was given).
	Profile configv1.TLSProfileType
	// MinVersion is the oldest TLS version the profile allows, as
	// --tls-min-version writes it (VersionTLS12).
	MinVersion configv1.TLSProtocolVersion
	// Suites are Go's names of the profile's TLS 1.0 to 1.2 suites that
	// --cipher-suites takes, in the profile's order.
	Suites []string
	// TLS13 are the TLS 1.3 suites the profile names: Go offers all three
	// whenever TLS 1.3 is spoken, so they are not rendered.
	TLS13 []string
	// Dropped are the profile's names the listener cannot serve.
	Dropped []Dropped
}

// Dropped is one name of a profile the listener cannot serve, and why.
type Dropped struct{ Name, Why string }

// Error is one reason a profile cannot be followed. Field is the path
// inside the profile (custom.ciphers[2]), for the caller to prefix with
// where the profile sits.
type Error struct{ Field, Message, Fix string }

func (e Error) Error() string { return fmt.Sprintf("%s: %s (fix: %s)", e.Field, e.Message, e.Fix) }

// Errors is every reason one profile cannot be followed, in field order.
type Errors []Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// versions are the values of minTLSVersion, oldest first.
var versions = []configv1.TLSProtocolVersion{configv1.VersionTLS10, configv1.VersionTLS11, configv1.VersionTLS12, configv1.VersionTLS13}

// types are the profile types in the order OpenShift documents them.
var types = []configv1.TLSProfileType{configv1.TLSProfileOldType, configv1.TLSProfileIntermediateType, configv1.TLSProfileModernType, configv1.TLSProfileCustomType}

// Resolve reads p (nil, or an empty type, is Default) into Settings, or
// returns Errors saying what to change.
func Resolve(p *configv1.TLSSecurityProfile) (Settings, error) {
	if p == nil {
		p = &configv1.TLSSecurityProfile{}
	}
	typ := p.Type
	if typ == "" {
		typ = Default
	}
	var errs Errors
	errs = append(errs, members(typ, p)...)
	spec, specErrs := specOf(typ, p)
	errs = append(errs, specErrs...)
	if len(errs) > 0 {
		return Settings{}, errs
	}
	s, nameErrs := settings(typ, spec)
	if len(nameErrs) > 0 {
		return Settings{}, nameErrs
	}
	return s, nil
}

// Same reports whether a and b have the listener follow one profile, as
// OpenShift reads them: a predefined type's member carries no settings,
// so {type: Modern} and {type: Modern, modern: {}} are the same, and so
// are no profile and Intermediate. Profiles that cannot be resolved are
// compared as written.
func Same(a, b *configv1.TLSSecurityProfile) bool {
	sa, errA := Resolve(a)
	sb, errB := Resolve(b)
	if errA != nil || errB != nil {
		return reflect.DeepEqual(a, b)
	}
	return reflect.DeepEqual(sa, sb)
}

// members: a profile sets at most the member its type names, since
// OpenShift follows only that one and a second would be silently ignored.
func members(typ configv1.TLSProfileType, p *configv1.TLSSecurityProfile) Errors {
	var errs Errors
	for _, m := range []struct {
		typ configv1.TLSProfileType
		set bool
	}{
		{configv1.TLSProfileOldType, p.Old != nil},
		{configv1.TLSProfileIntermediateType, p.Intermediate != nil},
		{configv1.TLSProfileModernType, p.Modern != nil},
		{configv1.TLSProfileCustomType, p.Custom != nil},
	} {
		if m.set && m.typ != typ {
			field := strings.ToLower(string(m.typ))
			errs = append(errs, Error{Field: field, Message: fmt.Sprintf("%s is set but type is %s, so it would be ignored", field, typ),
				Fix: fmt.Sprintf("remove %s, or set type: %s", field, m.typ)})
		}
	}
	return errs
}

// specOf is the definition type names: openshift/api's for the predefined
// profiles, the profile's own for Custom.
func specOf(typ configv1.TLSProfileType, p *configv1.TLSSecurityProfile) (*configv1.TLSProfileSpec, Errors) {
	if typ != configv1.TLSProfileCustomType {
		spec, ok := configv1.TLSProfiles[typ]
		if !ok {
			return nil, Errors{{Field: "type", Message: "unknown profile type " + quote(string(typ)), Fix: "use one of: " + joinTypes()}}
		}
		return spec, nil
	}
	if p.Custom == nil || len(p.Custom.Ciphers) == 0 {
		return nil, Errors{{Field: "custom.ciphers", Message: "a Custom profile lists no ciphers, so it says nothing the listener could follow",
			Fix: "list the ciphers by their OpenSSL names (docs/config.md lists them), or use type: Intermediate or Modern"}}
	}
	if !Known(p.Custom.MinTLSVersion) {
		return nil, Errors{{Field: "custom.minTLSVersion", Message: "unknown TLS version " + quote(string(p.Custom.MinTLSVersion)),
			Fix: "use one of: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13"}}
	}
	return &p.Custom.TLSProfileSpec, nil
}

func joinTypes() string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// settings sorts spec's ciphers by what the listener can do with them. A
// Custom profile's name no table knows is an error (a typo would otherwise
// drop a suite quietly); so is a Custom profile allowing TLS 1.2 with no
// suite left for it, where the listener would fall back to Go's defaults.
func settings(typ configv1.TLSProfileType, spec *configv1.TLSProfileSpec) (Settings, Errors) {
	s := Settings{Profile: typ, MinVersion: spec.MinTLSVersion}
	var errs Errors
	seen, unknown := map[string]bool{}, 0
	for i, name := range spec.Ciphers {
		c, ok := byOpenSSL(name)
		switch {
		case seen[name]:
			// a name listed twice (OpenShift allows it) is rendered once:
			// 10,000 copies made a 400 KB --cipher-suites
		case !ok:
			if unknown++; unknown <= maxUnknown {
				errs = append(errs, unknownName(i, name))
			}
		case c.support == served:
			s.Suites = append(s.Suites, c.goName)
		case c.support == tls13:
			s.TLS13 = append(s.TLS13, c.goName)
		default:
			s.Dropped = append(s.Dropped, Dropped{Name: name, Why: why[c.support]})
		}
		seen[name] = true
	}
	if unknown > maxUnknown {
		errs = append(errs, Error{Field: "custom.ciphers", Message: fmt.Sprintf("%d more names are not cipher names of OpenShift's TLS profiles (%d in all); only the first %d are said", unknown-maxUnknown, unknown, maxUnknown),
			Fix: "use OpenSSL's names (docs/config.md lists every name)"})
	}
	if len(errs) == 0 && typ == configv1.TLSProfileCustomType && s.MinVersion != configv1.VersionTLS13 && len(s.Suites) == 0 {
		errs = append(errs, Error{Field: "custom.ciphers", Message: fmt.Sprintf("none of the ciphers is a TLS 1.2 suite the listener can serve, yet minTLSVersion %s allows TLS 1.2: it would serve Go's default suites instead", s.MinVersion),
			Fix: "add a suite such as ECDHE-ECDSA-AES128-GCM-SHA256 or ECDHE-RSA-AES128-GCM-SHA256, or set minTLSVersion: VersionTLS13"})
	}
	return s, errs
}

// unknownName words a cipher name no table knows: Go's name gets its
// OpenSSL spelling as the fix, since OpenShift's profiles use those.
func unknownName(i int, name string) Error {
	e := Error{Field: fmt.Sprintf("custom.ciphers[%d]", i), Message: quote(name) + " is not a cipher name of OpenShift's TLS profiles (OpenSSL's names)",
		Fix: "use OpenSSL's name, such as ECDHE-RSA-AES128-GCM-SHA256 (docs/config.md lists every name and what the listener does with it)"}
	if c, ok := byGoName(name); ok {
		e.Fix = fmt.Sprintf("write it as OpenSSL names it, %s", c.openSSL)
	}
	return e
}

// maxUnknown bounds the names of a Custom profile said to be unknown, one
// error each: 10,000 bad names made a 2.6 MB error; the rest are counted.
const maxUnknown = 10

// maxEcho bounds a value of the profile an error quotes: a manifest's
// 200 KB cipher name is shown by its start, not echoed whole.
const maxEcho = 64

// quote is s as a Go literal (controls and bidi characters escaped), cut
// to maxEcho bytes on a rune boundary and marked when cut.
func quote(s string) string {
	if len(s) <= maxEcho {
		return strconv.Quote(s)
	}
	cut := maxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d more bytes)", strconv.Quote(s[:cut]), len(s)-cut)
}

// Known reports whether v is a TLS version minTLSVersion may name.
func Known(v configv1.TLSProtocolVersion) bool { return slices.Contains(versions, v) }

// Order compares two known TLS versions: negative, zero or positive as a
// is older than, the same as or newer than b.
func Order(a, b configv1.TLSProtocolVersion) int {
	return slices.Index(versions, a) - slices.Index(versions, b)
}
