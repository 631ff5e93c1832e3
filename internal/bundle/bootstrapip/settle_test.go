package bootstrapip

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// TestSettle: the flag and the config's own address, either alone, or the
// same address twice; two addresses are a conflict naming both.
func TestSettle(t *testing.T) {
	cases := []struct {
		flag, spec, family, want string
		err                      []string // substrings of the error; nil = no error
	}{
		{flag: "", spec: "", want: ""},
		{flag: "192.0.2.20", spec: "", want: "192.0.2.20"},
		{flag: "", spec: "192.0.2.10", want: "192.0.2.10"},
		{flag: "192.0.2.10", spec: "192.0.2.10", want: "192.0.2.10"},
		{flag: "2001:DB8::10", spec: "2001:db8:0::10", family: "ipv6", want: "2001:db8::10"},
		{flag: "192.0.2.20", spec: "192.0.2.10", err: []string{"--bootstrap-ip 192.0.2.20 disagrees with overlay upi's spec.bootstrapIP 192.0.2.10", "fix:"}},
		{flag: "not-an-ip", spec: "192.0.2.10", err: []string{"not-an-ip", "is not an IP address"}}, // the CLI's parse refuses it first
		{flag: "", spec: "not-an-ip", want: ""}, // left to the generator, which names spec.bootstrapIP
		{flag: "192.0.2.10", spec: "not-an-ip", err: []string{"--bootstrap-ip 192.0.2.10", "spec.bootstrapIP not-an-ip"}},
	}
	for _, tc := range cases {
		got, err := netip.Addr{}, error(nil)
		if tc.flag != "" {
			got, err = Validate(tc.flag, "")
		}
		if err == nil {
			got, err = Settle(Given{Flag: got, Spec: tc.spec, Family: Family(tc.family), Enabled: true, Overlay: "upi"})
		}
		gotText := ""
		if got.IsValid() {
			gotText = got.String()
		}
		switch {
		case tc.err == nil && (err != nil || gotText != tc.want):
			t.Errorf("settle(%q, %q) = %q, %v; want %q", tc.flag, tc.spec, gotText, err, tc.want)
		case tc.err != nil && err == nil:
			t.Errorf("settle(%q, %q) = %q; want an error", tc.flag, tc.spec, gotText)
		case tc.err != nil:
			for _, s := range tc.err {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("settle(%q, %q) error %q lacks %q", tc.flag, tc.spec, err, s)
				}
			}
		}
	}
}

// TestResolve: render's policy names the source at fault with a typed
// error, and auto detects only when the overlay names no address.
func TestResolve(t *testing.T) {
	detected := netip.MustParseAddr("198.51.100.7")
	cases := []struct {
		name     string
		g        Given
		want     string // the address; "" = none
		source   string // substring of Detection.Source
		errType  string // "missing", "conflict", "field:FIELD", "detect"; "" = no error
		noDetect bool   // detection fails the test
	}{
		{name: "flag alone", g: Given{Flag: netip.MustParseAddr("192.0.2.20"), Enabled: true}, want: "192.0.2.20"},
		{name: "nothing", g: Given{Enabled: true, Overlay: "ipv4"}, errType: "missing"},
		{name: "nothing, disabled", g: Given{}, want: ""},
		{name: "auto detects", g: Given{Auto: true, Enabled: true}, want: "198.51.100.7", source: "route"},
		{name: "auto keeps the overlay's", g: Given{Auto: true, Spec: "192.0.2.10", Enabled: true}, want: "192.0.2.10", source: "spec.bootstrapIP", noDetect: true},
		{name: "auto finds nothing", g: Given{Auto: true, Family: IPv6, Enabled: true}, errType: "detect"},
		{name: "conflict", g: Given{Flag: netip.MustParseAddr("192.0.2.20"), Spec: "192.0.2.10", Enabled: true}, errType: "conflict"},
		{name: "unusable spec", g: Given{Spec: "127.0.0.1", Enabled: true}, errType: "field:" + specField},
		{name: "flag of another family", g: Given{Flag: netip.MustParseAddr("192.0.2.20"), Family: IPv6, Enabled: true}, errType: "field:" + FlagField},
		{name: "spec of another family", g: Given{Spec: "2001:db8::10", Family: IPv4, Enabled: true}, errType: "field:" + specField},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			det, err := Resolve(tc.g, func(fam Family) (Detection, error) {
				if tc.noDetect {
					t.Error("detected although the overlay names its address")
				}
				if fam == IPv6 {
					return Detection{}, &Error{Problem: NotAnIP}
				}
				return Detection{Addr: detected, Source: "source address of the route to " + ProbeIPv4}, nil
			})
			if got := errType(err); got != tc.errType {
				t.Fatalf("error %v (%s), want %q", err, got, tc.errType)
			}
			if err != nil {
				return
			}
			got := ""
			if det.Addr.IsValid() {
				got = det.Addr.String()
			}
			if got != tc.want || !strings.Contains(det.Source, tc.source) {
				t.Errorf("got %q from %q, want %q from %q", got, det.Source, tc.want, tc.source)
			}
		})
	}
}

func errType(err error) string {
	switch e := err.(type) {
	case nil:
		return ""
	case *MissingError:
		return "missing"
	case *ConflictError:
		return "conflict"
	case *FieldError:
		return "field:" + e.Field
	case *DetectError:
		return "detect"
	}
	return "other: " + err.Error()
}

// TestSettledFor: the config render settled the address for takes it as
// it is; another config is settled against it, and a conflict names where
// the settled address came from.
func TestSettledFor(t *testing.T) {
	addr := netip.MustParseAddr("192.0.2.10")
	s := Settled{Addr: addr, From: "the overlay's first KonnectivityBundle config", Spec: "192.0.2.10"}
	cases := []struct {
		name     string
		settled  Settled
		g        Given
		want     netip.Addr
		conflict bool
	}{
		{"the config it was settled for", s, Given{Spec: "192.0.2.10", Enabled: true}, addr, false},
		{"a config without an address", Settled{Addr: addr}, Given{Enabled: true}, addr, false},
		{"another config, the same address", s, Given{Spec: "::ffff:192.0.2.10", Enabled: true}, addr, false},
		{"another config, another address", s, Given{Spec: "192.0.2.11", Enabled: true}, netip.Addr{}, true},
		{"a disabled config", s, Given{Spec: "192.0.2.11"}, netip.Addr{}, false},
		{"nothing settled: the config's own", Settled{}, Given{Spec: "192.0.2.11", Enabled: true}, netip.MustParseAddr("192.0.2.11"), false},
	}
	for _, tc := range cases {
		got, err := tc.settled.For(tc.g)
		var conflict *ConflictError
		if got != tc.want || errors.As(err, &conflict) != tc.conflict || err != nil && !tc.conflict {
			t.Errorf("%s: For = %v, %v; want %v, conflict %v", tc.name, got, err, tc.want, tc.conflict)
		}
		if tc.conflict && conflict.From != tc.settled.From {
			t.Errorf("%s: conflict from %q, want %q", tc.name, conflict.From, tc.settled.From)
		}
	}
}
