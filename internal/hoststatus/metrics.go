package hoststatus

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// Metric names of ANP v0.36.0 (pkg/server/metrics). grpc_connections with
// service_method="Connect" counts agent streams (one per connected agent);
// ready_backends counts, per proxy strategy, the keys an agent registered
// under (agent IDs for default, addresses for destHost).
const (
	metricAgentStreams  = `konnectivity_network_proxy_server_grpc_connections{service_method="Connect"}`
	metricReadyBackends = "konnectivity_network_proxy_server_ready_backends"
)

// serverMetrics is what status reads from /metrics.
type serverMetrics struct {
	streams  int            // -1 when the metric is absent
	backends map[string]int // strategy -> ready_backends
}

// parseMetrics reads the Prometheus text exposition.
func parseMetrics(body string) (serverMetrics, bool) {
	m := serverMetrics{streams: -1, backends: map[string]int{}}
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, val, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if !ok || strings.HasPrefix(name, "#") {
			continue
		}
		f, err := strconv.ParseFloat(strings.Fields(val)[0], 64)
		if err != nil {
			continue
		}
		if name == metricAgentStreams {
			m.streams = int(f)
		}
		if st, ok := strings.CutPrefix(name, metricReadyBackends+`{proxy_strategy="`); ok {
			m.backends[strings.TrimSuffix(st, `"}`)] = int(f)
		}
	}
	return m, m.streams >= 0 || len(m.backends) > 0
}

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
