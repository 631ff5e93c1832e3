package proxyversion

import (
	"slices"
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

// AddressKeys are the identifier keys the destHost strategy matches. What
// a value must be for the server to match it is bundlemodel's
// (identifiers.go), which reads addresses through internal/bundle/bootstrapip.
var AddressKeys = []string{"ipv4", "ipv6", "cidr", "host"}

// StrategyRelyingOn names the strategy that reads identifier key, or "".
func StrategyRelyingOn(key string) string {
	switch {
	case key == "default-route":
		return "defaultRoute"
	case slices.Contains(AddressKeys, key):
		return "destHost"
	}
	return ""
}

// RoutingFix is the advice when no listed strategy can reach the agents.
const RoutingFix = "put default in the proxy strategies, or make the agents advertise what the strategies match: an address identifier (ipv4, ipv6, cidr or host) for destHost, default-route=true for defaultRoute"
