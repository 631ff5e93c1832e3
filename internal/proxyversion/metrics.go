package proxyversion

import "slices"

// ServerMetrics names the metric families a proxy-server version exports
// on /metrics, as status, wait and the usage report read them. A name left
// "" is a family that version does not have.
type ServerMetrics struct {
	// OnHealthPort: the health port serves /metrics too, not only the
	// admin port. Upstream moved it there in v0.34.0 (PR #751); the
	// v0.28-era server answers /metrics on its admin port only.
	OnHealthPort bool
	// AgentStreams counts open gRPC streams by service_method; the
	// "Connect" series is one per connected agent.
	AgentStreams string
	// ReadyBackends counts, per proxy_strategy, the keys agents registered
	// under; only v0.36 reports readiness per strategy.
	ReadyBackends string
	// ReadyBackendConnections is one gauge of agents that the version sets
	// from whichever strategy's storage changed last: a count, not a
	// routing verdict.
	ReadyBackendConnections string
	// PendingDials are dials sent to an agent and not yet answered.
	PendingDials string
	// DialFailures counts failed dials by reason.
	DialFailures string
	// DialDuration is the histogram of dials an agent answered.
	DialDuration string
	// StreamPackets counts packets by segment and packet_type.
	StreamPackets string
}

// ConnectMethod is the service_method of agent streams in AgentStreams.
const ConnectMethod = "Connect"

const serverPrefix = "konnectivity_network_proxy_server_"

// metricsV028 are the families of the v0.28-era server (pkg/server/metrics
// and konnectivity-client's common metrics of that tree).
var metricsV028 = ServerMetrics{
	AgentStreams:            serverPrefix + "grpc_connections",
	ReadyBackendConnections: serverPrefix + "ready_backend_connections",
	PendingDials:            serverPrefix + "pending_backend_dials",
	DialFailures:            serverPrefix + "dial_failure_count",
	DialDuration:            serverPrefix + "dial_duration_seconds",
	StreamPackets:           serverPrefix + "stream_packets_total",
}

// metricsV036 add ready_backends per strategy to the v0.28 families, and
// serve them on the health port as well.
var metricsV036 = func() ServerMetrics {
	m := metricsV028
	m.ReadyBackends = serverPrefix + "ready_backends"
	m.OnHealthPort = true
	return m
}()

// Families are the metric names m declares, in field order: what a reader
// asks a page for when it must see every family this version writes.
func (m ServerMetrics) Families() []string {
	var out []string
	for _, f := range []string{m.AgentStreams, m.ReadyBackends, m.ReadyBackendConnections, m.PendingDials, m.DialFailures, m.DialDuration, m.StreamPackets} {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// FromMetrics names the version whose server wrote a /metrics page, for a
// bundle that names none: the newest version with a family its
// predecessor lacks on the page, else the oldest. has says whether the
// page holds a family. A new version that adds a family is told apart
// with no code here; one that adds none reads as its predecessor, whose
// names it shares.
func FromMetrics(has func(family string) bool) *Version {
	for i := len(Versions) - 1; i > 0; i-- {
		older := Versions[i-1].Metrics.Families()
		for _, f := range Versions[i].Metrics.Families() {
			if !slices.Contains(older, f) && has(f) {
				return Versions[i]
			}
		}
	}
	return Versions[0]
}
