package check

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// reportConflict: the binaries do not refuse a shared port; one listener
// fails with "address already in use" and the process keeps running. Losing
// the health server breaks the probes (an error); losing only the admin
// server loses the debug endpoints (a warning).
func reportConflict(w *bundlemodel.Workload, name, other string, port int, field string, r *report) {
	const fix = "give each listener its own port"
	health := isHealthPort(name) || isHealthPort(other)
	admin := isAdminPort(name) || isAdminPort(other)
	if admin && !health {
		r.warnf("port-conflict", w.Object.Ref(), field, fix,
			"--%s=%d is also --%s: the admin server (debug endpoints) cannot listen, the process runs on without it", name, port, other)
		return
	}
	r.errorf("port-conflict", w.Object.Ref(), field, fix,
		"--%s=%d is also --%s: one of the two listeners fails with address already in use while the process keeps running, so probes or connections on that port fail", name, port, other)
}

func isHealthPort(name string) bool { return name == "health-port" || name == "health-server-port" }
func isAdminPort(name string) bool  { return name == "admin-port" || name == "admin-server-port" }

// portFlag is one port a process listens on or dials.
type portFlag struct {
	name   string
	listen bool // a listener: must not collide with another listener
}

var serverPorts = []portFlag{
	{"server-port", true},
	{"agent-port", true},
	{"health-port", true},
	{"admin-port", true},
}

var agentPorts = []portFlag{
	{"proxy-server-port", false},
	{"health-server-port", true},
	{"admin-server-port", true},
}

// checkPorts: proxy-server refuses ports outside 1024..49151 (server-port may
// be 0 with UDS), proxy-agent any port <= 0; a process cannot listen twice on
// one port (port-out-of-range, port-conflict).
func checkPorts(b *bundlemodel.Bundle, _ Options, r *report) {
	if w := b.Server; w != nil {
		uds := w.Flags.Value("uds-name") != ""
		checkPortSet(w, serverPorts, r, func(p portFlag, v int) string {
			if p.name == "server-port" && uds && v == 0 {
				return ""
			}
			if !proxyversion.PortInRange(int64(v)) {
				return "outside 1024..49151; proxy-server refuses reserved and ephemeral ports"
			}
			return ""
		})
	}
	if w := b.Agent; w != nil {
		checkPortSet(w, agentPorts, r, func(_ portFlag, v int) string {
			if v <= 0 || v > 65535 {
				return "not a port number (proxy-agent: must be greater than 0)"
			}
			return ""
		})
	}
}

func checkPortSet(w *bundlemodel.Workload, ports []portFlag, r *report, bad func(portFlag, int) string) {
	seen := map[int]string{}
	for _, p := range ports {
		v, ok := w.Flags.Int(p.name)
		if !ok {
			continue // flag-value-invalid already reported it
		}
		field := w.Flags.FieldOr(p.name, w.Field+".args")
		if msg := bad(p, v); msg != "" {
			r.errorf("port-out-of-range", w.Object.Ref(), field, "choose a port in 1024..49151",
				"--%s=%d is %s", p.name, v, msg)
			continue
		}
		if !p.listen || v == 0 {
			continue
		}
		if other, dup := seen[v]; dup {
			reportConflict(w, p.name, other, v, field, r)
			continue
		}
		seen[v] = p.name
	}
}
