package check

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// checkReadiness: probes must hit the health port in the args
// (probe-port-mismatch), and the server's /readyz must be able to pass
// (readyz-never-ready).
func checkReadiness(b *bundlemodel.Bundle, _ Options, r *report) {
	if w := b.Server; w != nil {
		if port, ok := w.Flags.Int("health-port"); ok {
			checkProbePorts(w, "health-port", port, r)
		}
		checkReadyz(b, r)
	}
	if w := b.Agent; w != nil {
		if port, ok := w.Flags.Int("health-server-port"); ok {
			checkProbePorts(w, "health-server-port", port, r)
		}
	}
}

type namedProbe struct {
	field string
	probe *corev1.Probe
}

func probes(w *bundlemodel.Workload) []namedProbe {
	c := w.Container()
	return []namedProbe{
		{w.Field + ".livenessProbe", c.LivenessProbe},
		{w.Field + ".readinessProbe", c.ReadinessProbe},
		{w.Field + ".startupProbe", c.StartupProbe},
	}
}

func checkProbePorts(w *bundlemodel.Workload, flag string, health int, r *report) {
	for _, p := range probes(w) {
		if p.probe == nil {
			continue
		}
		var port intstr.IntOrString
		field := p.field
		switch {
		case p.probe.HTTPGet != nil:
			port, field = p.probe.HTTPGet.Port, field+".httpGet.port"
		case p.probe.TCPSocket != nil:
			port, field = p.probe.TCPSocket.Port, field+".tcpSocket.port"
		default:
			continue
		}
		got, ok := resolvePort(w.Container(), port)
		if ok && got == health {
			continue
		}
		r.errorf("probe-port-mismatch", w.Object.Ref(), field,
			fmt.Sprintf("point the probe at port %d, or change --%s", health, flag),
			"the probe uses port %s but the health server listens on --%s=%d; the probe can never pass", port.String(), flag, health)
	}
}

// resolvePort turns a named port into its number through the container's ports.
func resolvePort(c *corev1.Container, p intstr.IntOrString) (int, bool) {
	if p.Type == intstr.Int {
		return int(p.IntVal), true
	}
	for _, cp := range c.Ports {
		if cp.Name == p.StrVal {
			return int(cp.ContainerPort), true
		}
	}
	return 0, false
}

// checkReadyz: /readyz waits for an agent in the backend manager of the FIRST
// proxy strategy; agents that cannot register there keep the pod unready forever.
func checkReadyz(b *bundlemodel.Bundle, r *report) {
	w := b.Server
	p := w.Container().ReadinessProbe
	if p == nil || p.HTTPGet == nil || b.Agent == nil {
		return
	}
	if path, _, _ := strings.Cut(p.HTTPGet.Path, "?"); strings.TrimSuffix(path, "/") != "/readyz" {
		return
	}
	first := firstStrategy(w)
	q, _, err := b.Agent.Flags.Identifiers()
	if err != nil || !proxyversion.IsProxyStrategy(first) || bundlemodel.Serves(first, q) {
		return
	}
	var why string
	switch first {
	case "destHost":
		why = "the first proxy strategy is destHost and the agents advertise no address identifier (ipv4, ipv6, cidr or host)"
	case "defaultRoute":
		why = "the first proxy strategy is defaultRoute and the agents do not advertise default-route=true"
	default:
		return
	}
	r.errorf("readyz-never-ready", w.Object.Ref(), w.Field+".readinessProbe.httpGet.path",
		"probe readiness on /healthz (as HyperShift does), or put default first in --proxy-strategies, or make agents advertise a matching --agent-identifiers",
		"the readiness probe uses /readyz, which stays 500 (no connection to any proxy agent) forever: %s", why)
}
