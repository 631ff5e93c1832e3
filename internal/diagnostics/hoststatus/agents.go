package hoststatus

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// agents reads the server's /metrics: the admin port first (bound to
// 127.0.0.1, what `ports` lists for status), then the health port when the
// target serves /metrics there too (v0.36; v0.28 answers 404, which would
// hide why the admin port failed). It counts connected agents from the
// agent gRPC streams, not from one strategy's backends: with
// --proxy-strategies=destHost,... an agent that advertises no address is
// connected while destHost has no backend.
func (s *session) agents() {
	srv := s.root.Bundle.Server
	admin, err1 := srv.Port("admin-port")
	health, err2 := srv.Port("health-port")
	if err1 != nil || err2 != nil {
		s.rep.add(newCheck(CheckAgents, framework.Error, fmt.Sprintf("bad port flags: %v %v", err1, err2), ""))
		return
	}
	ports := []int{admin}
	if s.root.Bundle.Target.Binaries().Metrics.OnHealthPort {
		ports = append(ports, health)
	}
	var lastErr string
	for _, port := range ports {
		u := s.url(port, "/metrics")
		code, body, err := s.get(u)
		if err != nil || code != 200 {
			lastErr = fmt.Sprintf("%s: %s", u, describe(code, body, err))
			continue
		}
		m, err := parseMetrics(body, s.rep.Tunnel().Version)
		if err != nil || !m.found() {
			lastErr = fmt.Sprintf("%s has no agent count (%s{service_method=%q})", u, proxyversion.Newest.Metrics.AgentStreams, proxyversion.ConnectMethod)
			if err != nil {
				lastErr = fmt.Sprintf("%s: %v", u, err)
			}
			continue
		}
		s.rep.Agents, s.rep.PendingDials, s.rep.DialFailures = m.connected(), m.pending, m.failures
		s.rep.AgentsCounted = m.unreadable == ""
		s.rep.Metrics, s.rep.MetricsFrom = body, u
		s.reportAgents(u, m)
		return
	}
	s.rep.MetricsError = "cannot read the server's metrics: " + lastErr
	s.rep.add(newCheck(CheckAgents, framework.Error, s.rep.MetricsError,
		"the server is down, or --health-host points elsewhere (the admin and health ports listen on 127.0.0.1 only)"))
}

// reportAgents says how many agents are connected and whether the server's
// strategies can route to them. A version that reports no readiness per
// strategy (v0.28) is not taken to say that none can route: the rendered
// strategies and identifiers decide that instead.
func (s *session) reportAgents(u string, m serverMetrics) {
	if m.unreadable != "" {
		s.rep.add(newCheck(CheckAgents, framework.Error, fmt.Sprintf("unreadable figure in %s: %s; no verdict on the agents", u, m.unreadable),
			"the server's metrics are corrupt or not proxy-server's: check what listens on the admin and health ports"))
		return
	}
	n := m.connected()
	if n == 0 {
		s.rep.add(newCheck(CheckAgents, framework.Error, fmt.Sprintf("no agent connected (%s); the tunnel cannot carry traffic", u),
			AgentPortRule(s.rep)+"; `oc -n openshift-bootstrap-konnectivity get pods -o wide` and `oc logs` of an agent show dial or certificate errors"))
		return
	}
	strategies := s.strategies()
	if !m.perStrategy() {
		s.reportUnrouted(u, m, n, strategies)
		return
	}
	served, first := m.routable(strategies)
	served = slices.DeleteFunc(served, func(st string) bool { return !s.renderedServes(st) })
	backends := m.describe(strategies)
	switch {
	case len(served) == 0:
		s.rep.add(newCheck(CheckAgents, framework.Error,
			fmt.Sprintf("%d agent(s) connected, but no proxy strategy (%s) can route to them: every request gets `No agent available` (%s)", n, backends, u),
			proxyversion.RoutingFix+s.identifierHint()))
	case served[0] != first:
		s.rep.add(newCheck(CheckAgents, framework.Warning,
			fmt.Sprintf("%d agent(s) connected; requests route through %s, but the first strategy %s has none, so /readyz stays 500 (%s)", n, strings.Join(served, ","), first, backends),
			"put a strategy the agents serve first in --proxy-strategies"+s.identifierHint()))
	default:
		s.rep.add(newCheck(CheckAgents, framework.Info, fmt.Sprintf("%d agent(s) connected (%s; %s)", n, backends, u), ""))
	}
}

// strategies are the server's --proxy-strategies as rendered.
func (s *session) strategies() []string {
	return s.root.Bundle.Server.Flags.Strategies()
}

// renderedServes: a destHost backend registered under a value that is not
// an address (ipv4=notanip) counts in the metric but never matches a request;
// the rendered identifiers tell.
func (s *session) renderedServes(strategy string) bool {
	if s.root.Bundle.Agent == nil {
		return true
	}
	q, _, err := s.root.Bundle.Agent.Flags.Identifiers()
	return err == nil && bundlemodel.Serves(strategy, q)
}

// identifierHint names the rendered agents' identifiers and what is wrong
// with them, if anything.
func (s *session) identifierHint() string {
	if s.root.Bundle.Agent == nil {
		return ""
	}
	raw := s.root.Bundle.Agent.Flags.ValueOr("agent-identifiers")
	q, _, err := s.root.Bundle.Agent.Flags.Identifiers()
	if err != nil {
		return fmt.Sprintf("; the agents' --agent-identifiers=%q is not URL-query form", raw)
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		for _, v := range q[k] {
			if msg := bundlemodel.IdentifierValueProblem(k, v); msg != "" {
				return fmt.Sprintf("; the agents' identifier %s=%q %s", k, v, msg)
			}
		}
	}
	return fmt.Sprintf("; the agents advertise --agent-identifiers=%q", raw)
}

// reportUnrouted is reportAgents for a version without per-strategy
// readiness: the count is the server's, routing is judged from the
// rendered strategies and identifiers alone.
func (s *session) reportUnrouted(u string, m serverMetrics, n int, strategies []string) {
	served := slices.DeleteFunc(slices.Clone(strategies), func(st string) bool { return !s.renderedServes(st) })
	note := fmt.Sprintf("routing per strategy is not reported by proxy %s", m.version)
	if len(served) == 0 {
		s.rep.add(newCheck(CheckAgents, framework.Error,
			fmt.Sprintf("%d agent(s) connected, but the rendered agents advertise nothing the strategies %s match: every request gets `No agent available` (%s; %s)", n, strings.Join(strategies, ","), note, u),
			proxyversion.RoutingFix+s.identifierHint()))
		return
	}
	s.rep.add(newCheck(CheckAgents, framework.Info, fmt.Sprintf("%d agent(s) connected (%s; %s)", n, note, u), ""))
}
