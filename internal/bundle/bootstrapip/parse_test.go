package bootstrapip

import "testing"

// TestParseAddr: what the one parser takes as an address, as net.ParseIP
// took it before: no zone, an IPv4-mapped address read as IPv4.
func TestParseAddr(t *testing.T) {
	cases := []struct {
		in, want string // want "" = not an address
	}{
		{"192.0.2.10", "192.0.2.10"},
		{"2001:db8::10", "2001:db8::10"},
		{"::ffff:192.0.2.10", "192.0.2.10"},
		{"fe80::1%eth0", ""},
		{"bootstrap.example.com", ""},
		{"192.0.2.10:8091", ""},
		{"192.0.2.0/24", ""},
		{" 192.0.2.10", ""},
		{"", ""},
	}
	for _, tc := range cases {
		got, ok := ParseAddr(tc.in)
		if ok != (tc.want != "") || ok && got.String() != tc.want {
			t.Errorf("ParseAddr(%q) = %v, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	if _, err := ParsePrefix("::ffff:192.0.2.0/120"); err != nil {
		t.Errorf("ParsePrefix keeps a mapped prefix for the caller to refuse by name: %v", err)
	}
}
