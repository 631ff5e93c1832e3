package kustbuild

import (
	"net/netip"
	"strings"
	"testing"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bootstrapip"
)

func TestSettleBootstrapIP(t *testing.T) {
	cases := []struct {
		flag, spec, family, want string
		err                      []string // substrings of the error; nil = no error
	}{
		{flag: "", spec: "", want: ""},
		{flag: "192.0.2.20", spec: "", want: "192.0.2.20"},
		{flag: "", spec: "192.0.2.10", want: "192.0.2.10"},
		{flag: "192.0.2.10", spec: "192.0.2.10", want: "192.0.2.10"},
		{flag: "2001:DB8::10", spec: "2001:db8:0::10", family: "ipv6", want: "2001:db8::10"},
		{flag: "192.0.2.20", spec: "192.0.2.10", err: []string{"--bootstrap-ip 192.0.2.20", "spec.bootstrapIP 192.0.2.10", "fix:"}},
		{flag: "not-an-ip", spec: "192.0.2.10", err: []string{"not-an-ip", "is not an IP address"}}, // the CLI's parse refuses it first
		{flag: "", spec: "not-an-ip", want: ""},                                                     // left to the generator, which names spec.bootstrapIP
		{flag: "192.0.2.10", spec: "not-an-ip", err: []string{"--bootstrap-ip 192.0.2.10", "spec.bootstrapIP not-an-ip"}},
	}
	for _, tc := range cases {
		spec := bundle.Spec{BootstrapIP: tc.spec, IPFamily: tc.family}
		got, err := netip.Addr{}, error(nil)
		if tc.flag != "" {
			got, err = bootstrapip.Validate(tc.flag, "")
		}
		if err == nil {
			got, err = SettleBootstrapIP(got, spec)
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

// TestBuildAppliesTheBootstrapIPRule: upi's config sets spec.bootstrapIP
// 192.0.2.10; the flag may repeat it but never silently lose to it.
func TestBuildAppliesTheBootstrapIPRule(t *testing.T) {
	cases := []struct {
		flag string
		host string // the agents' --proxy-server-host; "" = the build fails
	}{
		{"", "192.0.2.10"},
		{"192.0.2.10", "192.0.2.10"},
		{"192.0.2.20", ""},
	}
	for _, tc := range cases {
		out, err := BuildOverlay("upi", Options{BootstrapIP: ipOf(tc.flag), Getenv: func(string) string { return "" }})
		switch {
		case tc.host == "" && err == nil:
			t.Errorf("--bootstrap-ip %s: built, want the conflict with spec.bootstrapIP 192.0.2.10", tc.flag)
		case tc.host == "" && !strings.Contains(err.Error(), "--bootstrap-ip 192.0.2.20 disagrees with the overlay's spec.bootstrapIP 192.0.2.10"):
			t.Errorf("--bootstrap-ip %s: error %v does not name both values", tc.flag, err)
		case tc.host != "" && err != nil:
			t.Errorf("--bootstrap-ip %q: %v", tc.flag, err)
		case tc.host != "" && !strings.Contains(string(out), "--proxy-server-host="+tc.host):
			t.Errorf("--bootstrap-ip %q: agents do not dial %s", tc.flag, tc.host)
		}
	}
}
