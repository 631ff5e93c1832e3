package bootstrapip

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		in     string
		family Family
		want   string // the address, or a substring of the error
		ok     bool
	}{
		{"192.0.2.10", "", "192.0.2.10", true},
		{" 192.0.2.10 ", IPv4, "192.0.2.10", true},
		{"2001:db8::10", IPv6, "2001:db8::10", true},
		{"fd00::2", IPv6, "fd00::2", true},
		{"::ffff:192.0.2.10", IPv4, "192.0.2.10", true},
		{"::ffff:192.0.2.10", IPv6, "is an ipv4 address, want ipv6", false},
		{"192.0.2.10", IPv6, "is an ipv4 address, want ipv6", false},
		{"2001:db8::10", IPv4, "is an ipv6 address, want ipv4", false},
		{"", "", "is not an IP address", false},
		{"bootstrap.example.com", "", "is not an IP address", false},
		{"192.0.2.300", "", "is not an IP address", false},
		{"192.0.2.10/24", "", "is not an IP address", false},
		{"127.0.0.1", "", "loopback", false},
		{"127.1.2.3", IPv4, "loopback", false},
		{"::1", IPv6, "loopback", false},
		{"0.0.0.0", "", "unspecified", false},
		{"::", "", "unspecified", false},
		{"169.254.10.1", "", "link-local", false},
		{"fe80::1", "", "link-local", false},
		{"fe80::1%eth0", "", "zone", false},
		{"224.0.0.1", "", "multicast", false},
		{"ff02::1", "", "multicast", false},
		{"255.255.255.255", "", "broadcast", false},
		{"0.1.2.3", "", `"0.1.2.3" is in 0.0.0.0/8 ("this network"`, false},
		{"::ffff:0.1.2.3", "", "0.0.0.0/8", false},
		{"240.0.0.1", "", `"240.0.0.1" is in 240.0.0.0/4 (reserved`, false},
		{"254.1.2.3", IPv4, "240.0.0.0/4", false},
		{"1.0.0.1", IPv4, "1.0.0.1", true},
		{"239.255.255.254", "", "multicast", false},
	}
	for _, tc := range cases {
		got, err := Validate(tc.in, tc.family)
		if tc.ok && (err != nil || got.String() != tc.want) {
			t.Errorf("Validate(%q, %q) = %v, %v; want %s", tc.in, tc.family, got, err, tc.want)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Validate(%q, %q) error %v, want one containing %q", tc.in, tc.family, err, tc.want)
		}
	}
}

// TestCheckFamily: the family rule alone, as Check words it; the other
// rules are not applied again (a loopback address of the family passes).
func TestCheckFamily(t *testing.T) {
	cases := []struct {
		addr    string
		family  Family
		wantErr string // "" = no error
	}{
		{"192.0.2.10", IPv4, ""},
		{"192.0.2.10", "", ""},
		{"192.0.2.10", DualStack, ""},
		{"2001:db8::10", DualStack, ""},
		{"::ffff:192.0.2.10", IPv4, ""},
		{"127.0.0.1", IPv4, ""},
		{"192.0.2.10", IPv6, `"192.0.2.10" is an ipv4 address, want ipv6`},
		{"::ffff:192.0.2.10", IPv6, `"::ffff:192.0.2.10" is an ipv4 address, want ipv6`},
		{"2001:db8::10", IPv4, `"2001:db8::10" is an ipv6 address, want ipv4`},
	}
	for _, tc := range cases {
		addr := netip.MustParseAddr(tc.addr)
		err := CheckFamily(addr, tc.family)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("CheckFamily(%s, %q) = %v, want nil", tc.addr, tc.family, err)
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
			t.Errorf("CheckFamily(%s, %q) = %v, want %s", tc.addr, tc.family, err, tc.wantErr)
		case tc.wantErr != "":
			if full := Check(addr, tc.family); full == nil || full.Error() != err.Error() {
				t.Errorf("CheckFamily(%s, %q) says %v where Check says %v", tc.addr, tc.family, err, full)
			}
		}
	}
}

func TestParseFamily(t *testing.T) {
	for in, want := range map[string]Family{"ipv4": IPv4, "IPv6": IPv6} {
		if got, err := ParseFamily(in); err != nil || got != want {
			t.Errorf("ParseFamily(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseFamily("dualstack"); err == nil || !strings.Contains(err.Error(), "ipv4 or ipv6") {
		t.Errorf("ParseFamily(dualstack) error %v", err)
	}
}

// fakeRoutes answers like the kernel would on a host with the given
// source addresses per network; a missing network has no route.
type fakeRoutes struct {
	src   map[string]string
	asked []string
}

func (f *fakeRoutes) source(network, target string) (netip.Addr, error) {
	f.asked = append(f.asked, network+" "+target)
	s, ok := f.src[network]
	if !ok {
		return netip.Addr{}, errors.New("connect: network is unreachable")
	}
	return netip.MustParseAddr(s), nil
}

func TestDetect(t *testing.T) {
	dual := map[string]string{"udp4": "192.0.2.2", "udp6": "fd00::2"}
	cases := []struct {
		name    string
		family  Family
		env     string
		routes  map[string]string
		want    string // address, or error substring
		ok      bool
		asked   string // the probe sent to the route source, "" for none
		fromEnv bool
	}{
		{"ipv4 route", IPv4, "", dual, "192.0.2.2", true, "udp4 1.1.1.1", false},
		{"default family is ipv4", "", "", dual, "192.0.2.2", true, "udp4 1.1.1.1", false},
		{"ipv6 route", IPv6, "", dual, "fd00::2", true, "udp6 2001:4860:4860::8888", false},
		{"override wins", IPv4, "198.51.100.7", dual, "198.51.100.7", true, "", true},
		{"ipv6 override", IPv6, "2001:db8::7", dual, "2001:db8::7", true, "", true},
		{"override of the wrong family", IPv6, "198.51.100.7", dual, EnvOverride + `: "198.51.100.7" is an ipv4 address, want ipv6`, false, "", false},
		{"malformed override", IPv4, "198.51.100", dual, EnvOverride + `: "198.51.100" is not an IP address`, false, "", false},
		{"loopback override", IPv4, "127.0.0.1", dual, "loopback", false, "", false},
		{"no ipv6 route", IPv6, "", map[string]string{"udp4": "192.0.2.2"}, "detect ipv6 bootstrap IP: connect: network is unreachable (set " + EnvOverride, false, "udp6 2001:4860:4860::8888", false},
		{"loopback route source", IPv4, "", map[string]string{"udp4": "127.0.0.1"}, "route source \"127.0.0.1\" is a loopback address", false, "udp4 1.1.1.1", false},
		{"link-local route source", IPv6, "", map[string]string{"udp6": "fe80::5"}, "link-local", false, "udp6 2001:4860:4860::8888", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			routes := &fakeRoutes{src: tc.routes}
			getenv := func(k string) string {
				if k == EnvOverride {
					return tc.env
				}
				return ""
			}
			d, err := Detect(tc.family, getenv, routes.source)
			if tc.ok && (err != nil || d.Addr.String() != tc.want) {
				t.Fatalf("Detect = %v, %v; want %s", d, err, tc.want)
			}
			if !tc.ok && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("Detect error %v, want one containing %q", err, tc.want)
			}
			if got := strings.Join(routes.asked, ","); got != tc.asked {
				t.Errorf("route source asked %q, want %q", got, tc.asked)
			}
			if tc.ok && (d.Source == EnvOverride) != tc.fromEnv {
				t.Errorf("Source %q, from override = %v", d.Source, tc.fromEnv)
			}
		})
	}
}
