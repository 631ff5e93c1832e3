package usage

// Metric families of proxy-server v0.36.0 (ANP pkg/server/metrics) that
// the report reads, from the server's admin port as status reads them.
const (
	serverDialDuration = "konnectivity_network_proxy_server_dial_duration_seconds" // histogram of dials an agent answered
	serverDialFailures = "konnectivity_network_proxy_server_dial_failure_count"    // reason
	serverPackets      = "konnectivity_network_proxy_server_stream_packets_total"  // segment, packet_type
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
