package proxyversion

import (
	"slices"
	"testing"
)

func TestParseIdentifiers(t *testing.T) {
	cases := []struct {
		raw     string
		unknown []string
		err     bool
	}{
		{"ipv4=10.0.0.5&default-route=true", nil, false},
		{"host=node-1&cidr=10.0.0.0/24&ipv6=fd00::5", nil, false},
		{"zone=a&ipv4=10.0.0.5&rack=b", []string{"rack", "zone"}, false},
		{"ipv4=%zz", nil, true},
	}
	for _, tc := range cases {
		_, unknown, err := ParseIdentifiers(tc.raw)
		if (err != nil) != tc.err || !slices.Equal(unknown, tc.unknown) {
			t.Errorf("ParseIdentifiers(%q) = unknown %v, err %v; want unknown %v, err %v", tc.raw, unknown, err, tc.unknown, tc.err)
		}
	}
}

func TestPortRangeAndStrategies(t *testing.T) {
	for p, ok := range map[int64]bool{1023: false, 1024: true, 8091: true, 49151: true, 49152: false, 0: false} {
		if PortInRange(p) != ok {
			t.Errorf("PortInRange(%d) = %v, want %v", p, !ok, ok)
		}
	}
	if !IsProxyStrategy("destHost") || IsProxyStrategy("desthost") {
		t.Error("proxy strategies are case-sensitive: destHost yes, desthost no")
	}
}
