package netreq

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// localFlows are the flows that stay on one host: the KAS to the server
// through the socket, and the health and admin ports.
func localFlows(b *bundlemodel.Bundle) ([]Requirement, error) {
	var out []Requirement
	s, a := b.Server, b.Agent
	if uds := s.Flags.Value("uds-name"); uds != "" {
		host, err := s.HostPath(uds)
		if err != nil {
			host = uds + " (container path: no hostPath mount covers it)"
		}
		out = append(out, Requirement{
			Purpose: "kube-apiserver egress to the server", Protocol: "unix", Path: host,
			From: "the bootstrap kube-apiserver", To: "the server's socket on the bootstrap host",
			Scope: scopeHost, Duration: whileServerRuns, Source: fmt.Sprintf("%s --uds-name", s.Object.ID()),
			Note: "created by the server with mode 0770; no firewall rule needed",
		})
	}
	ports := []struct {
		w       *bundlemodel.Workload
		flag    string
		purpose string
		from    string
		to      string
		dur     string
	}{
		{s, "health-port", healthPurpose(b), "the kubelet on the bootstrap host (probes) and konnectivity-bundle status", "the bootstrap host, " + healthBind(s), whileServerRuns},
		{s, "admin-port", "server /metrics (status reads connected agents here first)", "konnectivity-bundle status on the bootstrap host", "the bootstrap host, " + adminBind(s), whileServerRuns},
		{a, "health-server-port", "agent /healthz and /readyz", "the kubelet on each node (probes)", "each agent pod", whileAgentsRun},
		{a, "admin-server-port", "agent admin (metrics, debugging)", "inside the agent pod", "each agent pod, 127.0.0.1", whileAgentsRun},
	}
	for _, p := range ports {
		port, err := p.w.Port(p.flag)
		if err != nil {
			return nil, err
		}
		src := fmt.Sprintf("%s --%s", p.w.Object.ID(), p.flag)
		if _, set := p.w.Flags.Get(p.flag); !set {
			src += " (not set: proxy default)"
		}
		out = append(out, Requirement{Purpose: p.purpose, Protocol: "tcp", Port: port, From: p.from, To: p.to,
			Scope: scopeHost, Duration: p.dur, Source: src})
	}
	return out, nil
}

// healthPurpose: the health port serves /metrics as well only on versions
// that moved it there (v0.34.0 and later); v0.28 serves it on the admin
// port alone.
func healthPurpose(b *bundlemodel.Bundle) string {
	if b.Target.Binaries().Metrics.OnHealthPort {
		return "server /healthz, /readyz and /metrics"
	}
	return "server /healthz and /readyz"
}

func adminBind(s *bundlemodel.Workload) string {
	if v := s.Flags.Value("admin-bind-address"); v != "" {
		return v
	}
	return s.Flags.Binary.Default("admin-bind-address")
}

// healthBind: proxy-server binds its health port to every address unless
// --health-bind-address says otherwise.
func healthBind(s *bundlemodel.Workload) string {
	if v := s.Flags.Value("health-bind-address"); v != "" {
		return v
	}
	return "all addresses (no --health-bind-address)"
}
