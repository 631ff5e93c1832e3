// Package firewall turns the agent tunnel's network requirement (one TCP
// port on the bootstrap host, reached from the nodes) into firewall rules
// for a host (nftables, iptables, firewalld) or a cloud (security groups and
// firewall rules), each with a form that removes exactly what it added.
package firewall

import (
	"fmt"
	"net/netip"
	"slices"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// Requirement is the agent tunnel as the bundle deploys it (see
// netreq.Tunnel, which it is made from).
type Requirement struct {
	Port     int                  // the server's --agent-port
	Dial     string               // the agents' --proxy-server-host as written: an IP or a DNS name
	DialAddr netip.Addr           // Dial when it is an IP (bundlemodel.Tunnel.Addr); invalid for a DNS name
	Bind     netip.Addr           // the server's --agent-bind-address; invalid when it listens on every address
	Families []bootstrapip.Family // the families agents can reach the server over
	Source   string               // the objects and flags the values come from, for the output's header
}

func familyOf(a netip.Addr) bootstrapip.Family { return bootstrapip.FamilyOf(a) }

// guarded are the families whose agent port a restricting rule must close
// to everyone else: the server listens on both unless bound to one address.
func (r Requirement) guarded() []bootstrapip.Family {
	if r.Bind.IsValid() && !r.Bind.IsUnspecified() {
		return []bootstrapip.Family{familyOf(r.Bind)}
	}
	return []bootstrapip.Family{bootstrapip.IPv4, bootstrapip.IPv6}
}

// Options choose who may connect and which form is written.
type Options struct {
	From     []netip.Prefix // the node network, one prefix or more per family
	Anywhere bool           // allow every address (asked for explicitly)
	Revoke   bool           // write the form that removes the rules
	NftChain string         // nftables: add to this existing chain ("inet filter input") instead of an own table
	InfraID  string         // cloud formats: the cluster's infrastructure ID, carried by every rule (see ParseInfraID)
}

// Plan is a validated requirement and the sources allowed, per family.
type Plan struct {
	Req      Requirement
	Sources  map[bootstrapip.Family][]netip.Prefix
	Anywhere bool
	Revoke   bool
	NftChain []string // family, table, chain; nil for the own table
	InfraID  string   // the cluster's infrastructure ID; "" for the host formats
}

// NewPlan checks opts against the requirement. Errors name the flag and the fix.
func NewPlan(req Requirement, opts Options) (*Plan, error) {
	if req.Port < 1 || req.Port > 65535 {
		return nil, fmt.Errorf("agent port %d is not a TCP port (%s)", req.Port, req.Source)
	}
	p := &Plan{Req: req, Sources: map[bootstrapip.Family][]netip.Prefix{}, Anywhere: opts.Anywhere, Revoke: opts.Revoke}
	if err := p.sources(opts); err != nil {
		return nil, err
	}
	if opts.NftChain != "" {
		chain, err := parseNftChain(opts.NftChain, p)
		if err != nil {
			return nil, err
		}
		p.NftChain = chain
	}
	if opts.InfraID != "" {
		if err := ParseInfraID(opts.InfraID); err != nil {
			return nil, err
		}
		p.InfraID = opts.InfraID
	}
	return p, nil
}

func (p *Plan) sources(opts Options) error {
	used := p.Req.Families
	if len(used) == 0 {
		return fmt.Errorf("the requirement names no address family (%s)", p.Req.Source)
	}
	if err := CheckSources(opts); err != nil {
		return err
	}
	if opts.Anywhere {
		for _, f := range used {
			p.Sources[f] = []netip.Prefix{anyPrefix(f)}
		}
		return nil
	}
	for _, pfx := range opts.From {
		if err := notEverything(pfx); err != nil {
			return err
		}
		f := familyOf(pfx.Addr())
		if !hasFamily(used, f) {
			return fmt.Errorf("--from %s is %s, but agents reach the server over %s only (they dial %s: %s); give an %s CIDR of the node network, or render the bundle with a bootstrap IP of that family", pfx, f, used[0], p.Req.Dial, p.Req.Source, used[0])
		}
		// A repeated network is one source: clouds refuse a permission
		// that lists the same range twice (AWS), and the host formats
		// would only repeat the rule. First seen, first written.
		if pfx = pfx.Masked(); !slices.Contains(p.Sources[f], pfx) {
			p.Sources[f] = append(p.Sources[f], pfx)
		}
	}
	return nil
}

// CheckSources refuses the source flags on their own, before any bundle is
// read: --from missing without --from-anywhere, or both given.
func CheckSources(opts Options) error {
	switch {
	case opts.Anywhere && len(opts.From) > 0:
		return fmt.Errorf("--from and --from-anywhere exclude each other: give the node network with --from, or --from-anywhere alone")
	case !opts.Anywhere && len(opts.From) == 0:
		return fmt.Errorf("--from is required: give the node network the agents connect from (e.g. --from 10.0.0.0/24, once per family on dual-stack), or --from-anywhere to allow every address")
	}
	return nil
}

func anyPrefix(f bootstrapip.Family) netip.Prefix {
	if f == bootstrapip.IPv4 {
		return netip.PrefixFrom(netip.IPv4Unspecified(), 0)
	}
	return netip.PrefixFrom(netip.IPv6Unspecified(), 0)
}

func hasFamily(fs []bootstrapip.Family, f bootstrapip.Family) bool {
	for _, x := range fs {
		if x == f {
			return true
		}
	}
	return false
}

// families are the families with allowed sources, in output order.
func (p *Plan) families() []bootstrapip.Family {
	var out []bootstrapip.Family
	for _, f := range []bootstrapip.Family{bootstrapip.IPv4, bootstrapip.IPv6} {
		if len(p.Sources[f]) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// bindIn is the bind address when it is of family f and not the
// unspecified address, else invalid.
func (p *Plan) bindIn(f bootstrapip.Family) netip.Addr {
	b := p.Req.Bind
	if b.IsValid() && !b.IsUnspecified() && familyOf(b) == f {
		return b
	}
	return netip.Addr{}
}

// ParseFrom parses one --from value: a CIDR with no host bits set.
func ParseFrom(s string) (netip.Prefix, error) {
	p, err := bootstrapip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("--from %q is not a CIDR: give the node network as ADDRESS/BITS, e.g. --from 10.0.0.0/24 or --from fd00:10::/64", s)
	}
	if p.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("--from %s is an IPv4-mapped IPv6 CIDR: give the IPv4 network instead", s)
	}
	if m := p.Masked(); m != p {
		return netip.Prefix{}, fmt.Errorf("--from %s has host bits set: give the network, --from %s", s, m)
	}
	if err := notEverything(p); err != nil {
		return netip.Prefix{}, err
	}
	return p, nil
}

// notEverything refuses a /0: allowing every address must be asked for by
// name, with --from-anywhere, never slip in as a CIDR.
func notEverything(p netip.Prefix) error {
	if p.Bits() != 0 {
		return nil
	}
	return fmt.Errorf("--from %s allows every address: give the node network's CIDR, or --from-anywhere (alone) when every address is really meant", p)
}
