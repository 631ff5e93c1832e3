// Package bootstrapip finds and validates the bootstrap node's IP address:
// the address every proxy-agent dials and the server certificate's only SAN.
package bootstrapip

import (
	"fmt"
	"net/netip"
	"strings"
)

// Family is an IP address family as written in flags and configs.
type Family string

// The two families; the zero Family accepts either in Validate.
const (
	IPv4 Family = "ipv4"
	IPv6 Family = "ipv6"
)

// ParseFamily accepts "ipv4" or "ipv6" (any case).
func ParseFamily(s string) (Family, error) {
	switch f := Family(strings.ToLower(strings.TrimSpace(s))); f {
	case IPv4, IPv6:
		return f, nil
	}
	return "", fmt.Errorf("unknown IP family %q: use ipv4 or ipv6", s)
}

// FamilyOf reports the family of addr (IPv4-mapped IPv6 counts as IPv4).
func FamilyOf(addr netip.Addr) Family {
	if addr.Unmap().Is4() {
		return IPv4
	}
	return IPv6
}

// Validate parses s and checks that it can be dialed by agents on other
// nodes: a unicast, global-scope address of family want ("" accepts both).
// The error says what is wrong with the address; callers prefix the field.
func Validate(s string, want Family) (netip.Addr, error) {
	addr, err := netip.ParseAddr(strings.TrimSpace(s))
	if err != nil {
		return netip.Addr{}, fmt.Errorf("%q is not an IP address", s)
	}
	if addr.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("%q has a zone; a certificate SAN cannot carry one, give a global address", s)
	}
	addr = addr.Unmap()
	if kind := Unusable(addr); kind != "" {
		return netip.Addr{}, fmt.Errorf("%q is %s; agents on other nodes cannot reach it", s, kind)
	}
	if want != "" && FamilyOf(addr) != want {
		return netip.Addr{}, fmt.Errorf("%q is an %s address, want %s", s, FamilyOf(addr), want)
	}
	return addr, nil
}

// Unusable names the reason addr cannot be a bootstrap IP (agents on other
// nodes cannot dial it), or returns "".
func Unusable(addr netip.Addr) string {
	switch {
	case addr.IsUnspecified():
		return "the unspecified address"
	case addr.IsLoopback():
		return "a loopback address"
	case addr.IsMulticast():
		return "a multicast address"
	case addr.IsLinkLocalUnicast():
		return "a link-local address"
	case addr == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "the broadcast address"
	case thisNetwork.Contains(addr):
		return "in 0.0.0.0/8 (\"this network\", never a destination)"
	case reservedIPv4.Contains(addr):
		return "in 240.0.0.0/4 (reserved, not routed)"
	}
	return ""
}

// RFC 6890 special-purpose IPv4 blocks that can never be a destination.
var (
	thisNetwork  = netip.MustParsePrefix("0.0.0.0/8")
	reservedIPv4 = netip.MustParsePrefix("240.0.0.0/4")
)
