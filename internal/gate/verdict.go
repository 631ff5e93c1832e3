package gate

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/netreq"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/nodeverdict"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/result"
)

// Cause is why the tunnel is not ready yet: one per verdict.
type Cause string

// The causes, in the order the gate meets them.
const (
	NotRendered        Cause = "not-rendered"       // render's files are missing
	ServerNotRunning   Cause = "server-not-running" // socket missing or the server's /healthz failing
	EgressMismatch     Cause = "egress-mismatch"    // the kube-apiserver would dial another socket
	NoAgentConnected   Cause = "no-agent-connected" // no agent ever connected during the wait
	AgentsDropped      Cause = "agents-dropped"     // agents connected, then left
	TooFewAgents       Cause = "too-few-agents"     // fewer than --min-agents
	CannotRoute        Cause = "cannot-route"       // agents connected, no strategy routes to them
	CertificateProblem Cause = "certificates"       // expired, not yet valid, wrong chain or SAN
	TargetUnreachable  Cause = "target-unreachable" // a test dial through the tunnel failed
)

// Verdict is the gate's answer: ready, or the one cause in the way.
type Verdict struct {
	Ready  bool   `json:"ready"`
	Cause  Cause  `json:"cause,omitempty"`
	Detail string `json:"detail,omitempty"`
	Fix    string `json:"fix,omitempty"`
	// Waited is how long the gate waited; JSON has it as waitedSeconds
	// (MarshalJSON), a number a reader needs no unit for.
	Waited    time.Duration `json:"-"`
	Agents    int           `json:"agents"`
	MaxAgents int           `json:"maxAgents"`
	MinAgents int           `json:"minAgents"`
	Targets   []Target      `json:"targets,omitempty"`
	// Nodes is the node side while fewer than MinAgents agents are
	// connected: one line per node, or why it cannot be seen.
	Nodes *nodeverdict.Report `json:"nodes,omitempty"`
	// Status is the last status run, written as status writes it.
	Status *hoststatus.Report `json:"-"`
}

// statusCauses maps a status check that failed to the gate's cause; the
// agents check is read apart (agents.go).
var statusCauses = map[string]Cause{
	"rendered files":  NotRendered,
	"socket":          ServerNotRunning,
	"server health":   ServerNotRunning,
	"egress selector": EgressMismatch,
	"certificates":    CertificateProblem,
}

// fromStatus turns one status report into a verdict: the first check in
// error is the cause, with status's own detail and hint.
func fromStatus(rep *hoststatus.Report, minAgents, maxAgents int) *Verdict {
	v := &Verdict{Agents: rep.Agents, MaxAgents: maxAgents, MinAgents: minAgents, Status: rep}
	for _, c := range rep.Checks {
		if c.Severity != hoststatus.Error {
			continue
		}
		name := result.Rule(c)
		if name == "agents" {
			v.agentCause(rep, c.Message, result.Fix(c))
			return v
		}
		cause, ok := statusCauses[name]
		if !ok {
			cause = Cause(name)
		}
		v.Cause, v.Detail, v.Fix = cause, c.Message, result.Fix(c)
		return v
	}
	if rep.Agents < minAgents {
		v.Cause = TooFewAgents
		v.Detail = fmt.Sprintf("%d of %d agent(s) connected", rep.Agents, minAgents)
		v.Fix = "see which agent pods are not Running: `oc -n openshift-bootstrap-konnectivity get pods -o wide`; " + agentRule(rep)
	}
	return v
}

// agentCause reads status's agents check: no agent now, never or any
// more, or connected agents the strategies cannot route to.
func (v *Verdict) agentCause(rep *hoststatus.Report, detail, fix string) {
	switch {
	case rep.Agents > 0:
		v.Cause, v.Detail, v.Fix = CannotRoute, detail, fix
	case v.MaxAgents > 0:
		v.Cause = AgentsDropped
		v.Detail = fmt.Sprintf("%d agent(s) connected during the wait, none is now: %s", v.MaxAgents, detail)
		v.Fix = "agents that connect and drop usually fail the server's certificate check or are restarted: " +
			"compare the agents' Secret with the certificate directory (konnectivity-bundle check --cert-dir) and read an agent's log (`oc -n openshift-bootstrap-konnectivity logs ds/konnectivity-agent`)"
	default:
		v.Cause, v.Detail = NoAgentConnected, "no agent connected during the wait: "+detail
		v.Fix = agentRule(rep)
		if fix != "" {
			v.Fix += "; " + fix
		}
	}
}

// agentRule is the agent port's rule as `ports` prints it, read from the
// rendered bundle.
func agentRule(rep *hoststatus.Report) string {
	if rep.Rendered == nil {
		return "open the agent port from every node to the bootstrap host (konnectivity-bundle ports)"
	}
	r, err := netreq.Requirements(rep.Root, rep.Rendered.Bundle)
	if err != nil || len(r.Requirements) == 0 {
		return "open the agent port from every node to the bootstrap host (konnectivity-bundle ports)"
	}
	t := r.Requirements[0]
	return fmt.Sprintf("the rule from `konnectivity-bundle ports`: allow %s %d from %s to %s", t.Protocol, t.Port, t.From, t.To)
}

// waitingFor names the stage the gate is at, for progress lines.
func (v *Verdict) waitingFor() string {
	switch v.Cause {
	case NotRendered, EgressMismatch, CertificateProblem:
		return "a usable rendered root (" + string(v.Cause) + ")"
	case ServerNotRunning:
		return "the server"
	case NoAgentConnected, AgentsDropped, TooFewAgents:
		return fmt.Sprintf("agents (%d of %d)", v.Agents, v.MinAgents)
	case CannotRoute:
		return "a routable agent"
	case TargetUnreachable:
		return "the test dial"
	}
	return string(v.Cause)
}

// MarshalJSON writes the verdict with Waited as waitedSeconds, in seconds to
// the millisecond: a bare Duration would be nanoseconds without a unit.
func (v Verdict) MarshalJSON() ([]byte, error) {
	type plain Verdict
	return json.Marshal(struct {
		plain
		WaitedSeconds float64 `json:"waitedSeconds"`
	}{plain(v), v.Waited.Round(time.Millisecond).Seconds()})
}
