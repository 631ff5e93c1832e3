package bootstrapip

import "net/netip"

// ParseAddr is the one reading of an IP address written as text, wherever
// it is written: the tunnel's address (--proxy-server-host,
// spec.bootstrapIP), a bind address, a node's status address, an agent
// identifier. ok is false when s is not an address. An address with an
// IPv6 zone is not one (no other node can dial it, no certificate SAN
// carries it), and an IPv4-mapped IPv6 address comes back as the IPv4
// address it maps, so two spellings of one address compare equal.
func ParseAddr(s string) (addr netip.Addr, ok bool) {
	addr, err := netip.ParseAddr(s)
	if err != nil || addr.Zone() != "" {
		return netip.Addr{}, false
	}
	return addr.Unmap(), true
}

// ParsePrefix is the one reading of a CIDR written as text (--from, an
// agent's cidr identifier), as netip reads it: an IPv4-mapped prefix stays
// mapped, for the caller to refuse by name.
func ParsePrefix(s string) (netip.Prefix, error) {
	return netip.ParsePrefix(s)
}
