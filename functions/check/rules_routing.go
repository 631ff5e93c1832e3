package check

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
)

// checkRouting: at least one of the server's proxy strategies must be able to
// route to the agents (strategies-cannot-route), and the FIRST one, which
// /readyz and status wait for, should (first-strategy-unserved). An
// identifier value a listed strategy relies on but the server cannot parse
// is an error (agent-identifiers-invalid, in checkIdentifiers).
func checkRouting(b *bundle, _ Options, r *report) {
	if b.server == nil || b.agent == nil {
		return
	}
	strategies := strategiesOf(b.server)
	if len(strategies) == 0 || slices.ContainsFunc(strategies, func(s string) bool { return !anp.IsProxyStrategy(s) }) {
		return // proxy-strategy-unknown already says so
	}
	q, err := url.ParseQuery(b.agent.flags.value("agent-identifiers"))
	if err != nil {
		return // agent-identifiers-invalid already says so
	}
	field := b.server.flags.fieldOr("proxy-strategies", b.server.field+".args")
	unserved := anp.Unserved(strategies, q)
	switch {
	case len(unserved) == len(strategies):
		r.errorf("strategies-cannot-route", b.server.obj.ref(), field, anp.RoutingFix,
			"no proxy strategy in --proxy-strategies=%s can route to the agents (--agent-identifiers=%q): every request through the tunnel gets `No agent available`",
			strings.Join(strategies, ","), q.Encode())
	case len(unserved) > 0 && unserved[0] == strategies[0]:
		r.warnf("first-strategy-unserved", b.server.obj.ref(), field,
			fmt.Sprintf("put a strategy the agents serve first (e.g. --proxy-strategies=%s)", strings.Join(reorder(strategies, unserved), ",")),
			"the first proxy strategy %s cannot route to the agents: the tunnel works through a later strategy, but /readyz stays 500 and status counts no ready agent for %s", strategies[0], strategies[0])
	}
}

// strategiesOf lists --proxy-strategies in order.
func strategiesOf(w *workload) []string {
	var out []string
	for _, s := range strings.Split(w.flags.valueOr("proxy-strategies"), ",") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
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
