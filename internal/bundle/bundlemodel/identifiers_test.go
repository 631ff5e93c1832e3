package bundlemodel

import (
	"net/url"
	"slices"
	"testing"
)

func TestUnserved(t *testing.T) {
	cases := []struct {
		strategies  []string
		identifiers string
		unserved    []string
	}{
		{[]string{"default"}, "", nil},
		{[]string{"destHost", "defaultRoute"}, "", []string{"destHost", "defaultRoute"}},
		{[]string{"destHost", "default"}, "", []string{"destHost"}},
		{[]string{"destHost", "defaultRoute"}, "default-route=true", []string{"destHost"}},
		{[]string{"destHost", "defaultRoute"}, "ipv4=10.0.0.5&default-route=true", nil},
		{[]string{"destHost"}, "host=node-1", nil},
		{[]string{"destHost"}, "cidr=10.0.0.0/24", nil},
		{[]string{"destHost"}, "ipv4=notanip", []string{"destHost"}},
		// comma-joined: the server sees default-route="true,ipv4=10.0.0.5", not a bool
		{[]string{"defaultRoute"}, "default-route=true,ipv4=10.0.0.5", []string{"defaultRoute"}},
		{[]string{"destHost"}, "default-route=true,ipv4=10.0.0.5", []string{"destHost"}},
		{[]string{"defaultRoute"}, "default-route=maybe", []string{"defaultRoute"}},
		{[]string{"defaultRoute"}, "default-route=1", nil},
		{[]string{"bogus"}, "", []string{"bogus"}},
	}
	for _, tc := range cases {
		q, err := url.ParseQuery(tc.identifiers)
		if err != nil {
			t.Fatal(err)
		}
		if got := Unserved(tc.strategies, q); !slices.Equal(got, tc.unserved) {
			t.Errorf("Unserved(%v, %q) = %v, want %v", tc.strategies, tc.identifiers, got, tc.unserved)
		}
	}
}
