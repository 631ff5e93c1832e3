package proxyversion

import (
	"testing"
)

func TestStrategyRelyingOn(t *testing.T) {
	for key, want := range map[string]string{"ipv4": "destHost", "host": "destHost", "cidr": "destHost", "ipv6": "destHost", "default-route": "defaultRoute", "zone": "", "": ""} {
		if got := StrategyRelyingOn(key); got != want {
			t.Errorf("StrategyRelyingOn(%q) = %q, want %q", key, got, want)
		}
	}
}
