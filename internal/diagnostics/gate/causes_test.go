package gate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// check is one status check as hoststatus makes it.
func check(name hoststatus.CheckName, sev framework.Severity, detail, hint string) *framework.Result {
	return result.New(sev, string(name), "", "", detail, hint)
}

// report is a status run with agents connected and these checks, the root
// unread (so the agent port's rule is the general one).
func report(agents int, checks ...*framework.Result) *hoststatus.Report {
	return &hoststatus.Report{Root: "/", Agents: agents, PendingDials: -1, Checks: checks}
}

// healthy are the checks of a status run with nothing in error.
func healthy() []*framework.Result {
	return []*framework.Result{
		check(hoststatus.CheckRenderedFiles, framework.Info, "13 files as render wrote them", ""),
		check(hoststatus.CheckSocket, framework.Info, "socket, mode 0770", ""),
		check(hoststatus.CheckEgress, framework.Info, "cluster traffic goes to the server's socket", ""),
		check(hoststatus.CheckServerHealth, framework.Info, "ok", ""),
		check(hoststatus.CheckServerReady, framework.Warning, "HTTP 500", "see the agents line"),
		check(hoststatus.CheckAgents, framework.Info, "1 agent(s) connected", ""),
		check(hoststatus.CheckCertificates, framework.Info, "valid", ""),
	}
}

// with is healthy with the named check replaced.
func with(c *framework.Result) []*framework.Result {
	checks := healthy()
	for i, h := range checks {
		if result.Rule(h) == result.Rule(c) {
			checks[i] = c
		}
	}
	return checks
}

// generalRule is the agent port's rule when the root could not be read.
var generalRule = hoststatus.AgentPortRule(&hoststatus.Report{})

// portRule is the agents check's hint when no agent is connected, as
// hoststatus writes it (the root unread here, so the general rule).
var portRule = generalRule + "; `oc -n openshift-bootstrap-konnectivity get pods -o wide` and `oc logs` of an agent show dial or certificate errors"

// serverLog writes a server log with one refused handshake and returns it.
func serverLog(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "server.log")
	line := `2026-11-27T10:00:00Z stderr F I1127 grpc: Server.Serve failed to complete security handshake from "10.0.0.11:41234": ServerHandshake("10.0.0.11:41234") failed: tls: failed to verify certificate` + "\n"
	if err := os.WriteFile(file, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestEveryCause feeds status reports and the gate's stage outcomes to the
// verdict and checks the cause, what wait says it waits for, the detail
// and the fix, for every cause of the table and the unknown check. None
// needs root or a server: the status runs are built here.
func TestEveryCause(t *testing.T) {
	cases := []struct {
		name    string
		verdict func(t *testing.T) *Verdict
		cause   Cause
		waiting string
		detail  string // the whole detail, or with a trailing "..." its start
		fix     string // the same
	}{
		{name: "not rendered",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(0, check(hoststatus.CheckRenderedFiles, framework.Error, "no state file", "run konnectivity-bundle render")), 1, 0)
			},
			cause: NotRendered, waiting: "a usable rendered root (not-rendered)", detail: "no state file", fix: "run konnectivity-bundle render"},
		{name: "socket missing",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(0, with(check(hoststatus.CheckSocket, framework.Error, "no such file or directory", "crictl ps"))...), 1, 0)
			},
			cause: ServerNotRunning, waiting: "the server", detail: "no such file or directory", fix: "crictl ps"},
		{name: "healthz failing",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(0, with(check(hoststatus.CheckServerHealth, framework.Error, "connection refused", "the server is down"))...), 1, 0)
			},
			cause: ServerNotRunning, waiting: "the server", detail: "connection refused", fix: "the server is down"},
		{name: "egress mismatch",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(0, with(check(hoststatus.CheckEgress, framework.Error, "cluster traffic goes to /other.socket", "render again"))...), 1, 0)
			},
			cause: EgressMismatch, waiting: "a usable rendered root (egress-mismatch)", detail: "cluster traffic goes to /other.socket", fix: "render again"},
		{name: "no agent connected: the agents check's hint, the port rule once",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(0, with(check(hoststatus.CheckAgents, framework.Error, "no agent connected (http://127.0.0.1:8095/metrics)", portRule))...), 1, 0)
			},
			cause: NoAgentConnected, waiting: "agents (0 of 1)", detail: "no agent connected during the wait: no agent connected (http://127.0.0.1:8095/metrics)", fix: portRule},
		{name: "no agent connected, the metrics without an agent count: the port rule leads",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(0, with(check(hoststatus.CheckAgents, framework.Error, "cannot read the server's metrics", "the server is down"))...), 1, 0)
			},
			cause: NoAgentConnected, waiting: "agents (0 of 1)", detail: "no agent connected during the wait: cannot read the server's metrics", fix: generalRule + "; the server is down"},
		{name: "no agent connected, the check without a hint",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(0, with(check(hoststatus.CheckAgents, framework.Error, "bad port flags", ""))...), 2, 0)
			},
			cause: NoAgentConnected, waiting: "agents (0 of 2)", detail: "no agent connected during the wait: bad port flags", fix: generalRule},
		{name: "agents dropped",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(0, with(check(hoststatus.CheckAgents, framework.Error, "no agent connected", portRule))...), 1, 3)
			},
			cause: AgentsDropped, waiting: "agents (0 of 1)", detail: "3 agent(s) connected during the wait, none is now: no agent connected",
			fix: "agents that connect and drop usually fail the server's certificate check or are restarted: ..."},
		{name: "agents refused in the server's log",
			verdict: func(t *testing.T) *Verdict {
				rep := report(0, with(check(hoststatus.CheckAgents, framework.Error, "no agent connected", portRule))...)
				w := &waiter{opts: Options{Status: hoststatus.Options{Root: t.TempDir()}, ServerLog: serverLog(t), MinAgents: 1}}
				v := fromStatus(rep, 1, 0)
				w.refusedHandshakes(v)
				return v
			},
			cause: AgentsDropped, waiting: "agents (0 of 1)", detail: "agents reach the server but it refuses their TLS handshake (...",
			fix: "the agents' certificate or CA does not match the server's: ..."},
		{name: "too few agents",
			verdict: func(*testing.T) *Verdict { return fromStatus(report(1, healthy()...), 3, 1) },
			cause:   TooFewAgents, waiting: "agents (1 of 3)", detail: "1 of 3 agent(s) connected",
			fix: "see which agent pods are not Running: `oc -n openshift-bootstrap-konnectivity get pods -o wide`; " + generalRule},
		{name: "cannot route",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(2, with(check(hoststatus.CheckAgents, framework.Error, "2 agent(s) connected, but no proxy strategy (ready_backends{destHost}=0) can route to them", "add default"))...), 1, 2)
			},
			cause: CannotRoute, waiting: "a routable agent", detail: "2 agent(s) connected, but no proxy strategy (ready_backends{destHost}=0) can route to them", fix: "add default"},
		{name: "certificates",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(1, with(check(hoststatus.CheckCertificates, framework.Error, "server certificate expired at 2026-11-26T00:00:00Z", "render again"))...), 1, 1)
			},
			cause: CertificateProblem, waiting: "a usable rendered root (certificates)", detail: "server certificate expired at 2026-11-26T00:00:00Z", fix: "render again"},
		{name: "target refused",
			verdict: func(*testing.T) *Verdict {
				v := fromStatus(report(1, healthy()...), 1, 1)
				v.apply(stageRow(stageTestDial), finding{rep: v.Status, detail: "t (10.0.0.1:443): refused: connection refused", outcome: webhookprobe.Refused})
				return v
			},
			cause: TargetUnreachable, waiting: "the test dial", detail: "t (10.0.0.1:443): refused: connection refused", fix: targetFix(webhookprobe.Refused)},
		{name: "target drops packets: the agent's own dial timed out",
			verdict: func(*testing.T) *Verdict {
				v := fromStatus(report(1, healthy()...), 1, 1)
				judgeDial(v, Target{Name: "t", Address: "198.51.100.9:443", Outcome: webhookprobe.Timeout, Detail: "dial tcp 198.51.100.9:443: i/o timeout"}, 0, nil)
				return v
			},
			cause: TargetDrops, waiting: "the test dial", detail: "t (198.51.100.9:443): timeout: dial tcp 198.51.100.9:443: i/o timeout; the agent answered: its dial to the target timed out",
			fix: "the agent's dial to the target timed out: the target drops packets or is not listening. ..."},
		{name: "target dial failed: the test-dial stage itself",
			verdict: func(t *testing.T) *Verdict {
				w := &waiter{opts: Options{Status: hoststatus.Options{Root: t.TempDir()}, Targets: []string{"192.0.2.1:443"}, DialTimeout: 1}}
				v := fromStatus(report(1, healthy()...), 1, 1)
				w.dialTargets(context.Background(), v)
				return v
			},
			cause: TargetUnreachable, waiting: "the test dial", detail: "192.0.2.1:443 (192.0.2.1:443): failed: no state file ...", fix: "konnectivity-bundle probe TARGET shows the whole error"},
		{name: "the first check in error decides",
			verdict: func(*testing.T) *Verdict {
				checks := with(check(hoststatus.CheckSocket, framework.Error, "no socket", "start it"))
				checks[5] = check(hoststatus.CheckAgents, framework.Error, "no agent connected", portRule)
				return fromStatus(report(0, checks...), 1, 0)
			},
			cause: ServerNotRunning, waiting: "the server", detail: "no socket", fix: "start it"},
		{name: "a check unknown to the table",
			verdict: func(*testing.T) *Verdict {
				return fromStatus(report(1, check("tea kettle", framework.Error, "boiling", "")), 1, 1)
			},
			cause: UnknownCheck, waiting: "a status check this wait does not know",
			detail: `status check "tea kettle" failed, and wait knows no cause for it: boiling`, fix: "konnectivity-bundle status shows the check"},
		{name: "ready for the targets: no cause",
			verdict: func(*testing.T) *Verdict { return fromStatus(report(1, healthy()...), 1, 1) },
			cause:   "", waiting: ""},
	}
	seen := map[Cause]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.verdict(t)
			seen[v.Cause] = true
			if v.Cause != tc.cause || v.waitingFor() != tc.waiting {
				t.Errorf("cause %q, waiting for %q; want %q, %q", v.Cause, v.waitingFor(), tc.cause, tc.waiting)
			}
			if !sameText(v.Detail, tc.detail) {
				t.Errorf("detail:\n  %s\nwant:\n  %s", v.Detail, tc.detail)
			}
			if !sameText(v.Fix, tc.fix) {
				t.Errorf("fix:\n  %s\nwant:\n  %s", v.Fix, tc.fix)
			}
		})
	}
	for _, c := range append(Causes(), UnknownCheck) {
		if !seen[c] {
			t.Errorf("cause %s has no case here", c)
		}
	}
}

// sameText: got is want, or starts with want's text before a trailing "...".
func sameText(got, want string) bool {
	if prefix, ok := strings.CutSuffix(want, "..."); ok {
		return strings.HasPrefix(got, prefix)
	}
	return got == want
}

// TestEveryStatusCheckHasARow: every check status can report leads to a
// row of the table, and every row says what wait waits for meanwhile,
// comes from a check or a stage, and every cause has its help line.
func TestEveryStatusCheckHasARow(t *testing.T) {
	for _, name := range hoststatus.CheckNames {
		if !slices.ContainsFunc(causes, func(r row) bool { return slices.Contains(r.checks, name) }) {
			t.Errorf("status check %q has no row in the causes table: wait would call it %s", name, UnknownCheck)
		}
	}
	for _, r := range causes {
		if r.waiting == nil || (len(r.checks) == 0) == (r.stage == "") {
			t.Errorf("row of %s: want what wait waits for, and a status check or a stage, not both", r.cause)
		}
	}
	for _, c := range Causes() {
		if r, _ := rowOf(c); r.help == "" {
			t.Errorf("cause %s has no line for wait --help", c)
		}
	}
}
