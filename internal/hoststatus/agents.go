package hoststatus

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// Metric names of ANP v0.36.0 (pkg/server/metrics): ready_backends is per
// proxy strategy; ready_backend_connections is its deprecated total.
const (
	metricReadyBackends = "konnectivity_network_proxy_server_ready_backends"
	metricReadyConns    = "konnectivity_network_proxy_server_ready_backend_connections"
)

// agents counts connected agents from the server's metrics: the admin port
// first (bound to 127.0.0.1), then the health port, which serves the same
// /metrics and may be the only one reachable with --health-host.
func (s *session) agents() {
	srv := s.root.Bundle.Server
	admin, err1 := srv.Port("admin-port", 8095)
	health, err2 := srv.Port("health-port", 8092)
	if err1 != nil || err2 != nil {
		s.rep.add(Check{Name: "agents", Severity: Error, Detail: fmt.Sprintf("bad port flags: %v %v", err1, err2)})
		return
	}
	var lastErr string
	for _, port := range []int{admin, health} {
		u := s.url(port, "/metrics")
		code, body, err := s.get(u)
		if err != nil || code != 200 {
			lastErr = fmt.Sprintf("%s: %s", u, describe(code, body, err))
			continue
		}
		n, metric, ok := readyAgents(body, firstStrategy(srv.Flag("proxy-strategies")))
		if !ok {
			lastErr = fmt.Sprintf("%s has neither %s nor %s", u, metricReadyBackends, metricReadyConns)
			continue
		}
		s.rep.Agents = n
		s.rep.Metrics = body
		s.reportAgents(n, metric)
		return
	}
	s.rep.add(Check{Name: "agents", Severity: Error, Detail: "cannot read the server's metrics: " + lastErr,
		Hint: "the server is down, or --health-host points elsewhere (the admin port listens on 127.0.0.1 only)"})
}

func (s *session) reportAgents(n int, metric string) {
	if n > 0 {
		s.rep.add(Check{Name: "agents", Severity: OK, Detail: fmt.Sprintf("%d agent(s) connected (%s)", n, metric)})
		return
	}
	port, _ := s.root.Bundle.Server.Port("agent-port", 8091)
	s.rep.add(Check{Name: "agents", Severity: Error, Detail: fmt.Sprintf("no agent connected (%s = 0); the tunnel cannot carry traffic", metric),
		Hint: fmt.Sprintf("allow TCP %d from every cluster node to %s (konnectivity-bundle ports); "+
			"`oc -n openshift-bootstrap-konnectivity get pods -o wide` and `oc logs` of an agent show dial or certificate errors", port, s.rep.BootstrapIP)})
}

func firstStrategy(v string, ok bool) string {
	if !ok || v == "" {
		return "default"
	}
	first, _, _ := strings.Cut(v, ",")
	return strings.TrimSpace(first)
}

// readyAgents reads the Prometheus text exposition: the first strategy's
// ready_backends when present (what readiness uses), else the total.
func readyAgents(body, strategy string) (int, string, bool) {
	want := metricReadyBackends + `{proxy_strategy="` + strategy + `"}`
	var total = -1
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
		switch name {
		case want:
			return int(f), want, true
		case metricReadyConns:
			total = int(f)
		}
	}
	if total >= 0 {
		return total, metricReadyConns, true
	}
	return 0, "", false
}
