package v1alpha1

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// strategies: the server must be able to route to the agents it is given.
// proxy-server tries spec.server.proxyStrategies in order and answers
// `No agent available` when none of them has an agent; an identifier value
// a listed strategy relies on must be one the server parses (proxy-agent
// starts with any value, so nothing else would catch it). The same rules,
// from package proxyversion, are the checker's strategies-cannot-route and
// agent-identifiers-invalid.
func (v *validator) strategies(s *Spec) {
	strategies := s.Server.ProxyStrategies
	if slices.ContainsFunc(strategies, func(st string) bool { return !proxyversion.IsProxyStrategy(st) }) {
		return // already reported per item
	}
	q, _, err := proxyversion.ParseIdentifiers(s.Agent.Identifiers)
	if err != nil || strings.Contains(s.Agent.Identifiers, ",") {
		// not URL-query form: v.identifiers reports it; the server would
		// read a comma-joined list as one value no strategy matches.
		q = nil
	}
	v.reliedIdentifiers(strategies, q)
	if len(bundlemodel.Unserved(strategies, q)) < len(strategies) {
		return
	}
	v.add("spec.server.proxyStrategies",
		"add default to spec.server.proxyStrategies, or set spec.agent.identifiers to what the strategies match: an address (ipv4=, ipv6=, cidr= or host=) for destHost, default-route=true for defaultRoute",
		"no strategy in %v can route to the agents (spec.agent.identifiers %q): proxy-server would answer every request `No agent available`",
		strategies, s.Agent.Identifiers)
}

// reliedIdentifiers refuses identifier values the server cannot parse when a
// listed strategy reads their key.
func (v *validator) reliedIdentifiers(strategies []string, q url.Values) {
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		st := proxyversion.StrategyRelyingOn(k)
		if !slices.Contains(strategies, st) {
			continue
		}
		for _, val := range q[k] {
			if msg := bundlemodel.IdentifierValueProblem(k, val); msg != "" {
				v.add("spec.agent.identifiers", fmt.Sprintf("give %s a value the server parses, e.g. %s", k, identifierExample(k)),
					"%s=%q %s; the %s strategy relies on it and would never match", k, val, msg, st)
			}
		}
	}
}

func identifierExample(key string) string {
	switch key {
	case "ipv4":
		return "ipv4=10.0.0.5"
	case "ipv6":
		return "ipv6=fd00::5"
	case "cidr":
		return "cidr=10.0.0.0/24"
	case "host":
		return "host=node-1"
	}
	return "default-route=true"
}
