package proxyversion

import (
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Which agents a strategy's backend manager can route to, as proxy-server
// v0.36.0 decides it (pkg/server: one backend manager per strategy, tried in
// the order of --proxy-strategies; proto/header.GenAgentIdentifiers parses
// the agent's identifiers):
//   - default serves every agent;
//   - destHost serves an agent only for a destination equal to one of its
//     ipv4, ipv6 or host identifiers, or inside one of its cidr identifiers;
//   - defaultRoute serves agents whose first default-route value parses as
//     the bool true (anything else, "true,ipv4=..." included, counts as false).
//
// A request gets "No agent available" when no listed strategy has an agent,
// and /readyz stays 500 while the FIRST strategy has none.

// addressKeys are the identifier keys the destHost strategy matches.
var addressKeys = []string{"ipv4", "ipv6", "cidr", "host"}

// StrategyRelyingOn names the strategy that reads identifier key, or "".
func StrategyRelyingOn(key string) string {
	switch {
	case key == "default-route":
		return "defaultRoute"
	case slices.Contains(addressKeys, key):
		return "destHost"
	}
	return ""
}

// Serves reports whether agents advertising the parsed identifiers q can be
// routed to by strategy. Unknown strategies serve nothing.
func Serves(strategy string, q url.Values) bool {
	switch strategy {
	case "default":
		return true
	case "destHost":
		for _, k := range addressKeys {
			for _, v := range q[k] {
				if IdentifierValueProblem(k, v) == "" {
					return true
				}
			}
		}
	case "defaultRoute":
		if vs := q["default-route"]; len(vs) > 0 {
			b, err := strconv.ParseBool(vs[0])
			return err == nil && b
		}
	}
	return false
}

// Unserved returns, in order, the strategies no agent with identifiers q serves.
func Unserved(strategies []string, q url.Values) []string {
	var out []string
	for _, s := range strategies {
		if !Serves(s, q) {
			out = append(out, s)
		}
	}
	return out
}

// IdentifierValueProblem says why the server can never match value v of
// identifier key, or "" when it can. The usual cause is a comma where '&'
// separates identifiers: proxy-agent starts anyway.
func IdentifierValueProblem(key, v string) string {
	if strings.Contains(v, ",") {
		return "contains a comma; identifiers are separated by '&'"
	}
	switch key {
	case "ipv4":
		if ip := net.ParseIP(v); ip == nil || ip.To4() == nil {
			return "is not an IPv4 address"
		}
	case "ipv6":
		if ip := net.ParseIP(v); ip == nil || ip.To4() != nil {
			return "is not an IPv6 address"
		}
	case "cidr":
		if _, _, err := net.ParseCIDR(v); err != nil {
			return "is not a CIDR"
		}
	case "host":
		if v == "" {
			return "is empty"
		}
	case "default-route":
		if _, err := strconv.ParseBool(v); err != nil {
			return "is not true or false"
		}
	}
	return ""
}

// RoutingFix is the advice when no listed strategy can reach the agents.
const RoutingFix = "put default in the proxy strategies, or make the agents advertise what the strategies match: an address identifier (ipv4, ipv6, cidr or host) for destHost, default-route=true for defaultRoute"
