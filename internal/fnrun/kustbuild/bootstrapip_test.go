package kustbuild

import (
	"strings"
	"testing"
)

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
		case tc.host == "" && !strings.Contains(err.Error(), "--bootstrap-ip 192.0.2.20 disagrees with overlay upi's spec.bootstrapIP 192.0.2.10"):
			t.Errorf("--bootstrap-ip %s: error %v does not name both values", tc.flag, err)
		case tc.host != "" && err != nil:
			t.Errorf("--bootstrap-ip %q: %v", tc.flag, err)
		case tc.host != "" && !strings.Contains(string(out), "--proxy-server-host="+tc.host):
			t.Errorf("--bootstrap-ip %q: agents do not dial %s", tc.flag, tc.host)
		}
	}
}
