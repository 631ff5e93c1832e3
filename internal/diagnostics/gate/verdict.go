package gate

import (
	"encoding/json"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/nodeverdict"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// Cause is why the tunnel is not ready yet: one per verdict.
type Cause string

// The causes. Where each comes from, what wait waits for meanwhile, its fix
// and its line in wait --help are its rows in the causes table (causes.go).
const (
	NotRendered        Cause = "not-rendered"
	ServerNotRunning   Cause = "server-not-running"
	EgressMismatch     Cause = "egress-mismatch"
	NoAgentConnected   Cause = "no-agent-connected"
	AgentsDropped      Cause = "agents-dropped"
	TooFewAgents       Cause = "too-few-agents"
	CannotRoute        Cause = "cannot-route"
	CertificateProblem Cause = "certificates"
	TargetUnreachable  Cause = "target-unreachable"
	TargetDrops        Cause = "target-drops"
	// UnknownCheck is a status check in error that the table does not
	// name: a check status gained and the table did not (a test fails
	// first), said as such, never taken for another cause.
	UnknownCheck Cause = "unknown-check"
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
	// Kubeconfig is the kubeconfig the wait read the cluster with, or why
	// none, and the lists cut at the cap; the command sets it.
	Kubeconfig *kuberead.Used `json:"kubeconfig,omitempty"`
	// Status is the last status run, written as status writes it.
	Status *hoststatus.Report `json:"-"`
	// Stopped is why the wait ended before its --timeout (the caller
	// stopped it: "interrupted by SIGINT"); the verdict is the one so far.
	Stopped string `json:"stopped,omitempty"`
	// Said is how many progress lines in a row, up to the end, said this
	// cause and detail, when they were folded (2 or more; else 0).
	Said int `json:"said,omitempty"`
}

// fromStatus turns one status report into a verdict: the first check in
// error is the cause, through its row of the causes table; with none, too
// few agents is.
func fromStatus(rep *hoststatus.Report, minAgents, maxAgents int) *Verdict {
	v := &Verdict{Agents: rep.Agents, MaxAgents: maxAgents, MinAgents: minAgents, Status: rep}
	f := finding{rep: rep, minAgents: minAgents, maxAgents: maxAgents}
	for _, c := range rep.Checks {
		if c.Severity != framework.Error {
			continue
		}
		f.check, f.detail, f.hint = hoststatus.CheckName(result.Rule(c)), c.Message, result.Fix(c)
		v.apply(checkRow(f), f)
		return v
	}
	if rep.Agents < minAgents {
		v.apply(stageRow(stageAgentCount), f)
	}
	return v
}

// waitingFor names the stage the gate is at, for progress lines.
func (v *Verdict) waitingFor() string {
	r, ok := rowOf(v.Cause)
	if !ok {
		return string(v.Cause)
	}
	return r.waiting(v)
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
