package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
)

// stage is a step of the gate that gives a cause no status check gives.
type stage string

// The gate's own stages.
const (
	stageAgentCount stage = "agent count" // status found no error, but fewer than --min-agents agents
	stageServerLog  stage = "server log"  // the server's log shows it refusing agents' handshakes
	stageTestDial   stage = "test dial"   // a dial through the socket failed
	// a dial through the socket timed out in the agent's own dial to the
	// target, or an agent answered with a failure after the test dial
	// gave up
	stageTargetDrops stage = "target drops"
	// an agent took a test dial and never answered it past its own dial
	// timeout (the server's figures across the dial, dialevidence.go)
	stageStuckAgent stage = "stuck agent"
)

// finding is what one status check in error, or one stage, found: what a
// row builds the verdict's detail and fix from.
type finding struct {
	rep                  *hoststatus.Report
	check                hoststatus.CheckName // the check in error; "" for a stage
	detail, hint         string               // the check's message and hint, or the stage's own detail
	minAgents, maxAgents int
	outcome              webhookprobe.Outcome // the test dial's
	evidence             string               // what showed who ended a timed-out test dial
}

// row is one way to a cause: the status check in error or the gate's
// stage it comes from, what wait is waiting for meanwhile, the verdict's
// detail and fix, and the cause's line in wait --help.
type row struct {
	cause  Cause
	checks []hoststatus.CheckName // the status checks in error it comes from
	stage  stage                  // or the gate's stage it comes from
	// when picks the row among those of one check (the agents check gives
	// three causes); nil = always.
	when func(f finding) bool
	// waiting, readsLog, nodeFix and help belong to the cause, not to the
	// row: rowOf reads them from the cause's first row, and a later row
	// of the same cause repeats them.
	waiting func(v *Verdict) string
	detail  func(f finding) string // nil = the check's message
	fix     func(f finding) string // nil = the check's hint
	// readsLog: the server's log may show the agents' handshakes refused,
	// which explains the cause better (serverlog.go).
	readsLog bool
	// nodeFix: the fix of the cause most nodes share replaces this fix
	// (nodes.go): it names what to do on the nodes themselves.
	nodeFix bool
	// help is what wait --help says in parentheses after the cause.
	help string
}

// causes are the gate's causes in the order the gate meets them: the status
// checks in status's order (the server's two, its socket and /healthz,
// together before the egress file), then the agent count, then the test
// dials. fromStatus, waitingFor, the gate's stages and wait --help all read
// this table.
var causes = []row{
	{cause: NotRendered, checks: []hoststatus.CheckName{hoststatus.CheckRenderedFiles}, waiting: rootWaiting,
		help: "render's files are missing or unreadable"},
	// server ready is only ever a warning (the agents check says why);
	// it is listed so that every check status makes has a row.
	{cause: ServerNotRunning, checks: []hoststatus.CheckName{hoststatus.CheckSocket, hoststatus.CheckServerHealth, hoststatus.CheckServerReady},
		waiting: waits("the server"), help: "socket missing, /healthz failing"},
	{cause: EgressMismatch, checks: []hoststatus.CheckName{hoststatus.CheckEgress}, waiting: rootWaiting,
		help: "the kube-apiserver would dial another socket"},
	{cause: NoAgentConnected, checks: []hoststatus.CheckName{hoststatus.CheckAgents}, when: neverConnected, waiting: agentsWaiting,
		detail:   func(f finding) string { return "no agent connected during the wait: " + f.detail },
		fix:      withPortRule,
		readsLog: true, nodeFix: true, help: "with the agent port's rule from ports"},
	{cause: AgentsDropped, checks: []hoststatus.CheckName{hoststatus.CheckAgents}, when: connectedBefore, waiting: agentsWaiting,
		detail: func(f finding) string {
			return fmt.Sprintf("%d agent(s) connected during the wait, none is now: %s", f.maxAgents, f.detail)
		},
		fix: always("agents that connect and drop usually fail the server's certificate check or are restarted: " +
			"compare the agents' Secret with the certificate directory (konnectivity-bundle check --cert-dir) and read an agent's log (`oc -n openshift-bootstrap-konnectivity logs ds/konnectivity-agent`)"),
		readsLog: true, nodeFix: true,
		help: "agents connected and left, or the server's log shows it refusing their TLS handshake: a certificate or CA mismatch"},
	{cause: AgentsDropped, stage: stageServerLog, waiting: agentsWaiting,
		detail: func(f finding) string {
			return fmt.Sprintf("agents reach the server but it refuses their TLS handshake (%s)", f.detail)
		},
		fix: always("the agents' certificate or CA does not match the server's: the agent Secret and the certificate directory come from different renders. " +
			"Run konnectivity-bundle check --cert-dir on the rendered root, render again, then let the DaemonSet pick up the new Secret"),
		nodeFix: true},
	{cause: CannotRoute, checks: []hoststatus.CheckName{hoststatus.CheckAgents}, when: connectedNow, waiting: waits("a routable agent"),
		help: "no proxy strategy serves the agents"},
	{cause: CertificateProblem, checks: []hoststatus.CheckName{hoststatus.CheckCertificates}, waiting: rootWaiting,
		help: "expired, not yet valid, another CA or a missing SAN"},
	{cause: TooFewAgents, stage: stageAgentCount, waiting: agentsWaiting,
		detail: func(f finding) string { return fmt.Sprintf("%d of %d agent(s) connected", f.rep.Agents, f.minAgents) },
		fix: func(f finding) string {
			return "see which agent pods are not Running: `oc -n openshift-bootstrap-konnectivity get pods -o wide`; " + hoststatus.AgentPortRule(f.rep)
		},
		nodeFix: true, help: "fewer than --min-agents"},
	{cause: TargetUnreachable, stage: stageTestDial, waiting: waits("the test dial"),
		fix:  func(f finding) string { return targetFix(f.outcome) },
		help: "refused, timeout, no endpoint, or an agent that took the dial and never answered"},
	{cause: TargetUnreachable, stage: stageStuckAgent, waiting: waits("the test dial"),
		detail: func(f finding) string {
			return f.detail + "; an agent took the dial and never answered it: " + f.evidence
		},
		fix: stuckAgentFix},
	{cause: TargetDrops, stage: stageTargetDrops, waiting: waits("the test dial"),
		detail: func(f finding) string {
			if f.evidence == "" {
				return f.detail + "; the agent answered: its dial to the target timed out"
			}
			return f.detail + "; " + f.evidence
		},
		fix: always("the agent's dial to the target timed out: the target drops packets or is not listening. From the agents' nodes the address must be reachable " +
			"(pod network, NetworkPolicy, firewall; for a ClusterIP the node's service proxy must be up); `konnectivity-bundle probe TARGET` with a timeout above the agent's 5s shows the agent's own error"),
		help: "the agent answered that its dial timed out: the target drops packets or is not listening"},
}

// unknownCheck is the verdict on a status check in error that no row
// names: a check added to status and not to the table (a test catches
// that), said as such rather than taken for another cause.
var unknownCheck = row{cause: UnknownCheck,
	waiting: waits("a status check this wait does not know"),
	detail: func(f finding) string {
		return fmt.Sprintf("status check %q failed, and wait knows no cause for it: %s", f.check, f.detail)
	},
	fix: func(f finding) string { return orElse(f.hint, "konnectivity-bundle status shows the check") },
}

// Agents check: connected agents no strategy routes to, agents that left,
// or none ever.
func connectedNow(f finding) bool    { return f.rep.Agents > 0 }
func connectedBefore(f finding) bool { return f.rep.Agents == 0 && f.maxAgents > 0 }
func neverConnected(f finding) bool  { return f.rep.Agents == 0 && f.maxAgents == 0 }

func rootWaiting(v *Verdict) string { return "a usable rendered root (" + string(v.Cause) + ")" }

func agentsWaiting(v *Verdict) string { return fmt.Sprintf("agents (%d of %d)", v.Agents, v.MinAgents) }

// waits is a waiting column that is the same whatever the verdict.
func waits(s string) func(*Verdict) string { return func(*Verdict) string { return s } }

// always is a fix that is the same whatever was found.
func always(s string) func(finding) string { return func(finding) string { return s } }

// withPortRule is the agents check's hint led by the agent port's rule,
// which hoststatus.AgentPortRule alone writes. status's hint for no agent
// connected gives the rule already, and then it is not given again; the
// check's other hints (the server's metrics unreadable, as on proxy v0.28
// before any agent connected) do not, and wait leads with it.
func withPortRule(f finding) string {
	rule := hoststatus.AgentPortRule(f.rep)
	switch {
	case strings.Contains(f.hint, rule):
		return f.hint
	case f.hint == "":
		return rule
	}
	return rule + "; " + f.hint
}

func orElse(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// checkRow is the row of a status check in error, unknownCheck when none
// names it.
func checkRow(f finding) row {
	for _, r := range causes {
		if slices.Contains(r.checks, f.check) && (r.when == nil || r.when(f)) {
			return r
		}
	}
	return unknownCheck
}

// stageRow is the row of one of the gate's stages.
func stageRow(s stage) row {
	for _, r := range causes {
		if r.stage == s {
			return r
		}
	}
	panic("gate: no row for stage " + string(s))
}

// rowOf is the first row of a cause; false for no cause.
func rowOf(c Cause) (row, bool) {
	for _, r := range causes {
		if r.cause == c {
			return r, true
		}
	}
	if c == UnknownCheck {
		return unknownCheck, true
	}
	return row{}, false
}

// apply makes the row's cause the verdict's, with its detail and fix.
func (v *Verdict) apply(r row, f finding) {
	v.Cause, v.Detail, v.Fix = r.cause, f.detail, f.hint
	if r.detail != nil {
		v.Detail = r.detail(f)
	}
	if r.fix != nil {
		v.Fix = r.fix(f)
	}
}

// Causes are the causes wait can give, in the order the gate meets them,
// each once: what wait --help lists.
func Causes() []Cause {
	var out []Cause
	for _, r := range causes {
		if !slices.Contains(out, r.cause) {
			out = append(out, r.cause)
		}
	}
	return out
}

// Help is the cause's entry in wait --help: the cause and, in
// parentheses, what it means.
func (c Cause) Help() string {
	r, _ := rowOf(c)
	if r.help == "" {
		return string(c)
	}
	return string(c) + " (" + r.help + ")"
}
