// Package bootstrapip finds and validates the bootstrap node's IP address:
// the address every proxy-agent dials and the server certificate's only SAN.
// Validate is the one check of that address: the flags, the generator's
// spec.bootstrapIP, the certificate library and detection all apply it.
// Settle and Resolve are the one policy for which source's address a
// KonnectivityBundle config gets (settle.go).
package bootstrapip

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
)

// Family is an IP family as flags and configs (spec.ipFamily) write it.
type Family string

// The families. DualStack is a cluster's family, not an address's: its
// bootstrap IP may be of either family, and detection looks for IPv4, the
// primary family agents dial. The zero Family accepts either address family.
const (
	IPv4      Family = "ipv4"
	IPv6      Family = "ipv6"
	DualStack Family = "dualstack"
)

// ParseFamily accepts "ipv4" or "ipv6" (any case): the families an address
// can be detected for.
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

// primary is the address family of a cluster of family f: IPv6 for IPv6,
// IPv4 for everything else (dual-stack agents dial IPv4).
func (f Family) primary() Family {
	if f == IPv6 {
		return IPv6
	}
	return IPv4
}

// Name is the family as prose writes it: IPv4 or IPv6.
func (f Family) Name() string {
	if f == IPv6 {
		return "IPv6"
	}
	return "IPv4"
}

// Problem says what is wrong with a bootstrap IP.
type Problem int

// The problems Validate reports.
const (
	NotAnIP     Problem = iota + 1 // not an address at all (a name, a port, a prefix)
	HasZone                        // an IPv6 zone, which a SAN cannot carry
	Unreachable                    // a kind of address agents on other nodes cannot dial
	WrongFamily                    // usable, but not of the family asked for
)

// Error is an unusable bootstrap IP. Its text says what is wrong with the
// address; callers prefix the field, or word it as their users expect.
type Error struct {
	Input   string
	Problem Problem
	Kind    string // Unreachable: what the address is, e.g. "a loopback address"
	Got     Family // WrongFamily: the address's family
	Want    Family // WrongFamily: the family asked for
}

func (e *Error) Error() string {
	switch e.Problem {
	case NotAnIP:
		return fmt.Sprintf("%q is not an IP address", e.Input)
	case HasZone:
		return fmt.Sprintf("%q has a zone; a certificate SAN cannot carry one, give a global address", e.Input)
	case Unreachable:
		return fmt.Sprintf("%q is %s; agents on other nodes cannot reach it", e.Input, e.Kind)
	}
	return fmt.Sprintf("%q is an %s address, want %s", e.Input, e.Got, e.Want)
}

// AsError returns err's *Error, or nil.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// Validate parses s and checks that it can be dialed by agents on other
// nodes: a unicast, global-scope address, of family want when want is IPv4
// or IPv6 (DualStack and "" accept both). The address comes back unmapped;
// the error is an *Error.
func Validate(s string, want Family) (netip.Addr, error) {
	addr, err := netip.ParseAddr(strings.TrimSpace(s))
	if err != nil {
		return netip.Addr{}, &Error{Input: s, Problem: NotAnIP}
	}
	if addr.Zone() != "" {
		return netip.Addr{}, &Error{Input: s, Problem: HasZone}
	}
	addr = addr.Unmap()
	if err := check(s, addr, want); err != nil {
		return netip.Addr{}, err
	}
	return addr, nil
}

// Check applies Validate's rules to an address that is parsed already.
func Check(addr netip.Addr, want Family) error {
	if !addr.IsValid() {
		return &Error{Input: "", Problem: NotAnIP}
	}
	if addr.Zone() != "" {
		return &Error{Input: addr.String(), Problem: HasZone}
	}
	return check(addr.String(), addr.Unmap(), want)
}

// CheckFamily applies Check's family rule alone, to an address whose other
// rules were applied already (one parsed by Validate): an error when addr
// is not of family want (IPv4 or IPv6; DualStack and "" accept both).
func CheckFamily(addr netip.Addr, want Family) error {
	return checkFamily(addr.String(), addr.Unmap(), want)
}

func check(input string, addr netip.Addr, want Family) error {
	if kind := unusable(addr); kind != "" {
		return &Error{Input: input, Problem: Unreachable, Kind: kind}
	}
	return checkFamily(input, addr, want)
}

func checkFamily(input string, addr netip.Addr, want Family) error {
	if (want == IPv4 || want == IPv6) && FamilyOf(addr) != want {
		return &Error{Input: input, Problem: WrongFamily, Got: FamilyOf(addr), Want: want}
	}
	return nil
}

// unusable names the reason addr cannot be a bootstrap IP (agents on other
// nodes cannot dial it), or returns "".
func unusable(addr netip.Addr) string {
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
