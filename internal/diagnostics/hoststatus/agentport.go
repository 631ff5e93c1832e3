package hoststatus

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/netreq"
)

// AgentPortRule is the agent port's rule as `konnectivity-bundle ports`
// prints it, read from the rendered bundle. It is the one place the port
// advice is written: status's agents check gives it when no agent is
// connected, and wait gives it once in its fix for no agent connected
// (internal/diagnostics/gate).
func AgentPortRule(rep *Report) string {
	const unknown = "open the agent port from every node to the bootstrap host (konnectivity-bundle ports)"
	if rep.Rendered == nil {
		return unknown
	}
	r, err := netreq.Requirements(rep.Root, rep.Rendered.Bundle)
	if err != nil || len(r.Requirements) == 0 {
		return unknown
	}
	t := r.Requirements[0]
	return fmt.Sprintf("the rule from `konnectivity-bundle ports`: allow %s %d from %s to %s", t.Protocol, t.Port, t.From, t.To)
}
