package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// checkRouting: at least one of the server's proxy strategies must be able to
// route to the agents (strategies-cannot-route), and the FIRST one, which
// /readyz and status wait for, should (first-strategy-unserved). An
// identifier value a listed strategy relies on but the server cannot parse
// is an error (agent-identifiers-invalid, in checkIdentifiers).
func checkRouting(b *bundlemodel.Bundle, _ Options, r *report) {
	if b.Server == nil || b.Agent == nil {
		return
	}
	strategies := b.Server.Flags.Strategies()
	if len(strategies) == 0 || slices.ContainsFunc(strategies, func(s string) bool { return !proxyversion.IsProxyStrategy(s) }) {
		return // proxy-strategy-unknown already says so
	}
	q, _, err := b.Agent.Flags.Identifiers()
	if err != nil {
		return // agent-identifiers-invalid already says so
	}
	field := b.Server.Flags.FieldOr("proxy-strategies", b.Server.Field+".args")
	unserved := bundlemodel.Unserved(strategies, q)
	switch {
	case len(unserved) == len(strategies):
		r.errorf("strategies-cannot-route", b.Server.Object.Ref(), field, proxyversion.RoutingFix,
			"no proxy strategy in --proxy-strategies=%s can route to the agents (--agent-identifiers=%q): every request through the tunnel gets `No agent available`",
			strings.Join(strategies, ","), q.Encode())
	case len(unserved) > 0 && unserved[0] == strategies[0]:
		r.warnf("first-strategy-unserved", b.Server.Object.Ref(), field,
			fmt.Sprintf("put a strategy the agents serve first (e.g. --proxy-strategies=%s)", strings.Join(reorder(strategies, unserved), ",")),
			"the first proxy strategy %s cannot route to the agents: the tunnel works through a later strategy, but /readyz stays 500 and status counts no ready agent for %s", strategies[0], strategies[0])
	}
}

// reorder puts the served strategies first, keeping the order within each group.
func reorder(all, unserved []string) []string {
	var served []string
	for _, s := range all {
		if !slices.Contains(unserved, s) {
			served = append(served, s)
		}
	}
	return append(served, unserved...)
}
