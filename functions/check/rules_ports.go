package check

// portFlag is one port a process listens on or dials.
type portFlag struct {
	name   string
	def    int
	listen bool // a listener: must not collide with another listener
}

var serverPorts = []portFlag{
	{"server-port", serverDefaultServerPort, true},
	{"agent-port", serverDefaultAgentPort, true},
	{"health-port", serverDefaultHealthPort, true},
	{"admin-port", serverDefaultAdminPort, true},
}

var agentPorts = []portFlag{
	{"proxy-server-port", agentDefaultServerPort, false},
	{"health-server-port", agentDefaultHealthPort, true},
	{"admin-server-port", agentDefaultAdminPort, true},
}

// checkPorts: proxy-server refuses ports outside 1024..49151 (server-port may
// be 0 with UDS), proxy-agent any port <= 0; a process cannot listen twice on
// one port (port-out-of-range, port-conflict).
func checkPorts(b *bundle, _ Options, r *report) {
	if w := b.server; w != nil {
		uds := w.flags.value("uds-name") != ""
		checkPortSet(w, serverPorts, r, func(p portFlag, v int) string {
			if p.name == "server-port" && uds && v == 0 {
				return ""
			}
			if v < 1024 || v > 49151 {
				return "outside 1024..49151; proxy-server refuses reserved and ephemeral ports"
			}
			return ""
		})
	}
	if w := b.agent; w != nil {
		checkPortSet(w, agentPorts, r, func(_ portFlag, v int) string {
			if v <= 0 || v > 65535 {
				return "not a port number (proxy-agent: must be greater than 0)"
			}
			return ""
		})
	}
}

func checkPortSet(w *workload, ports []portFlag, r *report, bad func(portFlag, int) string) {
	seen := map[int]string{}
	for _, p := range ports {
		v, ok := intFlag(w.flags, p.name, p.def)
		if !ok {
			continue // flag-value-invalid already reported it
		}
		field := w.flags.fieldOr(p.name, w.field+".args")
		if msg := bad(p, v); msg != "" {
			r.errorf("port-out-of-range", w.obj.ref(), field, "choose a port in 1024..49151",
				"--%s=%d is %s", p.name, v, msg)
			continue
		}
		if !p.listen || v == 0 {
			continue
		}
		if other, dup := seen[v]; dup {
			r.errorf("port-conflict", w.obj.ref(), field, "give each listener its own port",
				"--%s=%d is also --%s; the second listener fails with address already in use", p.name, v, other)
			continue
		}
		seen[v] = p.name
	}
}
