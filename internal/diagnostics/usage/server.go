package usage

import "github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"

// Metric families of proxy-server that the report reads, from the
// server's admin port as status reads them; every supported version names
// them alike (proxyversion.ServerMetrics).
var (
	serverDialDuration = proxyversion.Newest.Metrics.DialDuration  // histogram of dials an agent answered
	serverDialFailures = proxyversion.Newest.Metrics.DialFailures  // reason
	serverPackets      = proxyversion.Newest.Metrics.StreamPackets // segment, packet_type
)

// serverDialsFrom totals the server's dials to the agents.
func serverDialsFrom(f families) *ServerDials {
	d := &ServerDials{FailedByReason: map[string]int{}}
	for _, s := range f.series(serverPackets) {
		if s.labels["packet_type"] == "DIAL_REQ" && s.labels["segment"] == "to_agent" {
			d.Requested += s.count()
		}
	}
	for _, s := range f.series(serverDialFailures) {
		d.Failed += s.count()
		d.FailedByReason[s.labels["reason"]] += s.count()
	}
	h := &histogram{}
	for _, s := range f.series(serverDialDuration) {
		h.add(s.metric)
	}
	d.Succeeded = int(h.count)
	d.Latency = h.latency()
	return d
}
