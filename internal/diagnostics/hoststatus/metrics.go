package hoststatus

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/promtext"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// serverMetrics is what status reads from the server's /metrics, by the
// metric names of the server's version (proxyversion.ServerMetrics).
type serverMetrics struct {
	version  *proxyversion.Version
	streams  int            // agent streams; -1 when the metric is absent
	backends map[string]int // strategy -> ready_backends; nil when the version reports none per strategy
	pending  int            // dials waiting for an agent's answer; -1 when unreadable
	failures map[string]int // dial failures by reason; nil when unreadable
	// unreadable names a figure that is not a finite count (the agents
	// line then gives no verdict).
	unreadable string
}

// parseMetrics reads the families status needs. The version is the
// bundle's target; a bundle that names none is read as the page shows
// itself (proxyversion.FromMetrics).
func parseMetrics(body string, target *proxyversion.Version) (serverMetrics, error) {
	page, err := promtext.Read(strings.NewReader(body), everyFamily()...)
	if err != nil {
		return serverMetrics{}, err
	}
	v := target
	if v == nil {
		v = proxyversion.FromMetrics(page.Has)
	}
	out := serverMetrics{version: v, streams: -1, pending: -1}
	names := v.Metrics
	for _, fam := range []string{names.AgentStreams, names.ReadyBackends, names.PendingDials} {
		if why := page.Unreadable(fam); fam != "" && why != "" {
			out.unreadable = why
			return out, nil
		}
	}
	if hasConnect(page, names.AgentStreams) {
		out.streams, _ = page.Sum(names.AgentStreams, func(l map[string]string) bool { return l["service_method"] == proxyversion.ConnectMethod })
	}
	if names.ReadyBackends != "" && page.Has(names.ReadyBackends) {
		out.backends = map[string]int{}
		for _, s := range page.Series(names.ReadyBackends) {
			out.backends[s.Labels["proxy_strategy"]] = s.Count()
		}
	}
	// The gauge appears with the first dial (a vector without labels):
	// absent, none is pending.
	if n, ok := page.Sum(names.PendingDials, nil); ok || !page.Has(names.PendingDials) {
		out.pending = n
	}
	// The family appears with its first failure: absent, none failed yet.
	if page.Unreadable(names.DialFailures) == "" {
		out.failures = map[string]int{}
		for _, s := range page.Series(names.DialFailures) {
			out.failures[s.Labels["reason"]] += s.Count()
		}
	}
	return out, nil
}

// hasConnect: the agent-stream family exists before any agent has
// connected only once a series of it was created; absent, it says nothing.
func hasConnect(page *promtext.Page, family string) bool {
	for _, s := range page.Series(family) {
		if s.Labels["service_method"] == proxyversion.ConnectMethod {
			return true
		}
	}
	return false
}

// found reports whether the page held anything status counts agents by.
func (m serverMetrics) found() bool {
	return m.unreadable != "" || m.streams >= 0 || m.backends != nil
}

// perStrategy reports whether the version says which strategy can route.
func (m serverMetrics) perStrategy() bool { return m.backends != nil }

// connected is the number of agents with an open stream; without that
// metric, the largest per-strategy count.
func (m serverMetrics) connected() int {
	if m.streams >= 0 {
		return m.streams
	}
	n := 0
	for _, v := range m.backends {
		n = max(n, v)
	}
	return n
}

// routable returns the listed strategies that have a ready backend, in
// order, and the first listed strategy.
func (m serverMetrics) routable(strategies []string) (served []string, first string) {
	for _, st := range strategies {
		if m.backends[st] > 0 {
			served = append(served, st)
		}
	}
	if len(strategies) > 0 {
		first = strategies[0]
	}
	return served, first
}

// describe lists ready_backends per listed strategy.
func (m serverMetrics) describe(strategies []string) string {
	parts := make([]string, 0, len(strategies))
	for _, st := range strategies {
		parts = append(parts, fmt.Sprintf("ready_backends{%s}=%d", st, m.backends[st]))
	}
	return strings.Join(parts, ", ")
}

// everyFamily is every metric family some supported version writes, so the
// page shows which version wrote it whatever the bundle targets.
func everyFamily() []string {
	var out []string
	for _, v := range proxyversion.Versions {
		for _, f := range v.Metrics.Families() {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}
