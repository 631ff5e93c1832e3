package cli

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// fakeRoute stands in for the kernel: a host with both families routed,
// or with no route at all.
func fakeRoute(routed bool) bootstrapip.RouteSource {
	return func(network, target string) (netip.Addr, error) {
		if !routed {
			return netip.Addr{}, errors.New("connect: network is unreachable")
		}
		if network == "udp6" {
			return netip.MustParseAddr("fd00::2"), nil
		}
		return netip.MustParseAddr("192.0.2.2"), nil
	}
}

func TestDetectIPCommand(t *testing.T) {
	override := map[string]string{bootstrapip.EnvOverride: "198.51.100.7"}
	cases := []struct {
		name           string
		routed         bool
		env            map[string]string
		args           []string
		code           int
		stdout, stderr string // stdout exact, stderr substring
	}{
		{"ipv4 by default", true, nil, nil, 0, "192.0.2.2\n", ""},
		{"ipv6", true, nil, []string{"--family", "ipv6"}, 0, "fd00::2\n", ""},
		{"family is case-insensitive", true, nil, []string{"--family", "IPv6"}, 0, "fd00::2\n", ""},
		{"override", true, override, nil, 0, "198.51.100.7\n", ""},
		{"verbose says where from", true, override, []string{"-v"}, 0, "198.51.100.7\n", "198.51.100.7 from " + bootstrapip.EnvOverride},
		{"verbose route", true, nil, []string{"--verbose", "--family=ipv6"}, 0, "fd00::2\n", "fd00::2 from source address of the route to 2001:4860:4860::8888"},
		{"override of the wrong family", true, override, []string{"--family", "ipv6"}, 1, "",
			`konnectivity-bundle detect-ip: OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP: "198.51.100.7" is an ipv4 address, want ipv6`},
		{"malformed override", true, map[string]string{bootstrapip.EnvOverride: "bootstrap"}, nil, 1, "", `"bootstrap" is not an IP address`},
		{"no route", false, nil, nil, 1, "", "detect ipv4 bootstrap IP: connect: network is unreachable (set OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP to override)"},
		{"bad family", true, nil, []string{"--family", "dualstack"}, 2, "", `--family: unknown IP family "dualstack": use ipv4 or ipv6`},
		{"argument", true, nil, []string{"eth0"}, 2, "", "detect-ip takes no arguments"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := New(Config{RouteSource: fakeRoute(tc.routed)})
			code, stdout, stderr := runProgram(t, c, tc.env, append([]string{"detect-ip"}, tc.args...)...)
			if code != tc.code || stdout != tc.stdout || !strings.Contains(stderr, tc.stderr) || (tc.stderr == "" && stderr != "") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr containing %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}
