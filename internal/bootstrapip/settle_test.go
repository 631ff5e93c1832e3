package bootstrapip

import (
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
