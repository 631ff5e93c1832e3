package nodeverdict

import "fmt"

// confirm holds every line whose pod is Ready to the server's own count:
// the kubelet's Ready bit can be stale, or say the agent reached another
// server. A line stays connected only when the server runs and counts at
// least as many agents as there are ready pods; otherwise it says what is
// and is not known. It returns the server's count, -1 when none was read.
func confirm(lines []Line, srv Server) int {
	ready := 0
	for _, l := range lines {
		if l.Cause == Connected {
			ready++
		}
	}
	for i := range lines {
		if lines[i].Cause == Connected {
			lines[i].Cause, lines[i].Detail, lines[i].Fix = confirmed(ready, srv, lines[i].Node)
		}
	}
	if srv.Down != "" || !srv.Counted {
		return -1
	}
	return srv.Agents
}

// confirmed is the cause, detail and fix of the line of a node whose pod
// is ready, given how many pods are ready and what the server says.
func confirmed(ready int, srv Server, node string) (Cause, string, string) {
	switch {
	case srv.Down != "":
		return ServerDown, "agent pod ready; the server is not running, so no connection is confirmed (" + srv.Down + ")",
			"start the server first (the server checks say why it is down): crictl ps -a --name konnectivity-server, and crictl logs of it, on the bootstrap host"
	case !srv.Counted:
		return NotCounted, "agent pod ready per kubelet, but the server's agent count could not be read, so no connection is confirmed",
			"read the server's metrics (konnectivity-bundle status says why they are unreadable), and the agent's log on " + node
	case srv.Agents < ready:
		return NotCounted, fmt.Sprintf("agent pod ready per kubelet, but the server counts %s for %s: a pod's Ready can be stale, or come from an agent connected to another server",
				plural(srv.Agents, "agent"), plural(ready, "ready pod")),
			"read the agent's log on " + node + " (crictl logs $(crictl ps -q --name konnectivity-agent | head -1)) for the server it reached and its errors: its --proxy-server-host must be this bootstrap host"
	}
	return Connected, fmt.Sprintf("agent pod ready, and the server counts %s for %s", plural(srv.Agents, "agent"), plural(ready, "ready pod")), ""
}

// plural is n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
