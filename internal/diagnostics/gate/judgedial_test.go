package gate

import (
	"context"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// The details of a timed-out test dial as the probe writes them: its own
// deadline with no answer (the kube-apiserver's dialer still waiting, or
// v0.28's CONNECT accepted and then silent), the agent's dial error passed
// on by the proxy, and v0.36's dial bound in either mode.
const (
	detailNoAnswer   = "no answer through the tunnel before the timeout (context deadline exceeded); the kube-apiserver would still be waiting"
	detailSilent     = "timeout: the proxy accepted the CONNECT, but no byte came back from the target before the deadline (an agent that took the dial and never answered, or a target that says nothing to a TLS hello)"
	detailAgentDrops = "proxy error while dialing 198.51.100.9:443, code 503: the agent's dial failed after the proxy had accepted the CONNECT dial tcp 198.51.100.9:443: i/o timeout"
	detailBound504   = "proxy error from /etc/kubernetes/bootstrap-configs/konnectivity-server.socket while dialing 198.51.100.9:443, code 504: 504 Gateway Timeout Backend dial timeout: timed out waiting for backend dial"
	detailBoundGRPC  = "dial tcp 198.51.100.9:443: timed out waiting for backend dial"
	detailTLSTimeout = "tls handshake: read tcp: i/o timeout"
	detailBare504    = "proxy error from /etc/kubernetes/bootstrap-configs/konnectivity-server.socket while dialing 198.51.100.9:443, code 504: 504 Gateway Timeout"
)

func TestAnswerOf(t *testing.T) {
	cases := []struct {
		outcome webhookprobe.Outcome
		detail  string
		want    dialAnswer
	}{
		{webhookprobe.Timeout, detailNoAnswer, unanswered},
		{webhookprobe.Timeout, detailSilent, unanswered},
		{webhookprobe.Timeout, detailAgentDrops, agentTimedOut},
		{webhookprobe.Timeout, detailBound504, serverBound},
		{webhookprobe.Timeout, detailBoundGRPC, serverBound},
		{webhookprobe.Timeout, detailTLSTimeout, answerOther},
		{webhookprobe.Failed, detailBare504, gatewayTimeout},
		{webhookprobe.Failed, "no state file", answerOther},
		{webhookprobe.Refused, "dial tcp 198.51.100.9:443: connect: connection refused", answerOther},
	}
	for _, tc := range cases {
		if got := answerOf(Target{Outcome: tc.outcome, Detail: tc.detail}); got != tc.want {
			t.Errorf("answerOf(%s, %q) = %d; want %d", tc.outcome, tc.detail, got, tc.want)
		}
	}
}

// rendered renders the default overlay for a proxy version, in a mode.
func rendered(t *testing.T, version *proxyversion.Version, mode string) *renderedroot.Root {
	t.Helper()
	root := shortroot.Dir(t, "kbj")
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"),
		Image: "registry.test.invalid/anp:test", ProxyVersion: version}); err != nil {
		t.Fatal(err)
	}
	rr, err := renderedroot.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if rr.Bundle.Target.Version != version {
		t.Fatalf("rendered for %v, want %s", rr.Bundle.Target.Version, version)
	}
	f := rr.Bundle.Server.Flags
	u := f.Last["mode"]
	u.Value = mode
	f.Last["mode"] = bundlemodel.FlagUse{Use: u.Use, Field: u.Field}
	return rr
}

// figures is a status run with the server's dial figures.
func figures(rr *renderedroot.Root, pending int, failures map[string]int) *hoststatus.Report {
	return &hoststatus.Report{Root: "/", Agents: 1, AgentsCounted: true, PendingDials: pending, DialFailures: failures, Rendered: rr, Checks: healthy()}
}

// TestJudgeDial: a timed-out test dial gives a stuck agent only on the
// server's own evidence that excludes the other causes; a target that
// drops packets gets its own cause; leaked dials (a raised
// pending_backend_dials that does not change across the dial) and the
// test dial still inside the agent's dial timeout name no agent. On v0.28
// in http-connect mode the stuck agent's fix says that only a server
// restart clears the dials it took.
func TestJudgeDial(t *testing.T) {
	v028, v036 := rendered(t, proxyversion.V028, proxyversion.ModeHTTPConnect), rendered(t, proxyversion.V036, proxyversion.ModeHTTPConnect)
	v028grpc := rendered(t, proxyversion.V028, proxyversion.ModeGRPC)
	none := map[string]int{}
	cases := []struct {
		name        string
		before      *hoststatus.Report
		outcome     webhookprobe.Outcome // "" = timeout
		detail      string
		after       *hoststatus.Report // nil: no second read wanted
		dialTimeout time.Duration
		cause       Cause
		inDetail    []string
		inFix       []string
		notInFix    []string
	}{
		{name: "the agent's own dial timed out: the target drops packets", before: figures(v028, 0, none), detail: detailAgentDrops, dialTimeout: 8 * time.Second,
			cause: TargetDrops, inDetail: []string{"i/o timeout", "the agent answered: its dial to the target timed out"}, inFix: []string{"drops packets or is not listening"}, notInFix: []string{"delete its pod"}},
		{name: "leaked dials stay, the agent answers after the test dial gave up: drops, no frozen agent", before: figures(v028, 5, map[string]int{"error_response": 2}), detail: detailSilent, dialTimeout: 3 * time.Second,
			after: figures(v028, 5, map[string]int{"error_response": 3}),
			cause: TargetDrops, inDetail: []string{"answered with a dial failure after the test dial gave up", "changed by +0"}, inFix: []string{"drops packets"}, notInFix: []string{"frozen", "delete its pod"}},
		{name: "the test dial still inside the agent's dial timeout is not counted: the second read is past it", before: figures(v036, 0, none), detail: detailNoAnswer, dialTimeout: 3 * time.Second,
			after: figures(v036, 0, map[string]int{"error_response": 1}), cause: TargetDrops, notInFix: []string{"frozen"}},
		{name: "the dial still pending past the agent's dial timeout: a stuck agent (v0.28 http-connect: restart)", before: figures(v028, 4, none), detail: detailSilent, dialTimeout: 5 * time.Second,
			after: figures(v028, 5, none), cause: TargetUnreachable, inDetail: []string{"an agent took the dial and never answered it", "pending_backend_dials changed by +1"},
			inFix: []string{"delete its pod", "has no --backend-dial-timeout", "only a proxy-server restart clears them", "crictl stop $(crictl ps -q --name konnectivity-server)"}},
		{name: "v0.28 in grpc mode: no restart needed", before: figures(v028grpc, 0, none), detail: detailNoAnswer, dialTimeout: 5 * time.Second,
			after: figures(v028grpc, 1, none), cause: TargetUnreachable, inFix: []string{"delete its pod"}, notInFix: []string{"restart"}},
		{name: "v0.36: the server's bound ended a dial the test gave up on", before: figures(v036, 0, none), detail: detailNoAnswer, dialTimeout: 5 * time.Second,
			after: figures(v036, 0, map[string]int{"backend_dial_timeout": 1}), cause: TargetUnreachable, inDetail: []string{"--backend-dial-timeout ended by +1"},
			inFix: []string{"delete its pod"}, notInFix: []string{"restart", "has no --backend-dial-timeout"}},
		{name: "v0.36: the server's bound answered the test dial itself", before: figures(v036, 0, none), detail: detailBound504, dialTimeout: 8 * time.Second,
			cause: TargetUnreachable, inDetail: []string{"the server's --backend-dial-timeout (6s) ended it"}, inFix: []string{"delete its pod"}},
		{name: "raised pending dials that do not change name no agent", before: figures(v028, 6, none), detail: detailSilent, dialTimeout: 8 * time.Second,
			after: figures(v028, 6, none), cause: TargetUnreachable, inDetail: []string{"neither a stuck agent nor a target that drops packets is shown"}, inFix: []string{targetFix(webhookprobe.Timeout)}, notInFix: []string{"delete its pod"}},
		{name: "a restarted server between the reads: nothing known", before: figures(v028, 6, map[string]int{"error_response": 4}), detail: detailSilent, dialTimeout: 8 * time.Second,
			after: figures(v028, 1, map[string]int{"error_response": 0}), cause: TargetUnreachable, inDetail: []string{"could not be compared"}, notInFix: []string{"delete its pod"}},
		{name: "the second read failed: nothing known", before: figures(v028, 0, none), detail: detailNoAnswer, dialTimeout: 5 * time.Second,
			after: &hoststatus.Report{PendingDials: -1}, cause: TargetUnreachable, inDetail: []string{"could not be compared"}, notInFix: []string{"delete its pod"}},
		{name: "v0.36's bare 504, an agent answered: drops, whatever is still pending", before: figures(v036, 0, none), outcome: webhookprobe.Failed, detail: detailBare504, dialTimeout: 8 * time.Second,
			after: figures(v036, 1, map[string]int{"error_response": 1}), cause: TargetDrops, inDetail: []string{"the server's 504 passes on an agent's answer"}, notInFix: []string{"frozen"}},
		{name: "v0.36's bare 504 from its own bound: a stuck agent", before: figures(v036, 0, none), outcome: webhookprobe.Failed, detail: detailBare504, dialTimeout: 8 * time.Second,
			after: figures(v036, 0, map[string]int{"backend_dial_timeout": 1}), cause: TargetUnreachable, inFix: []string{"delete its pod"}},
		{name: "a bare 504 with neither figure: the general verdict", before: figures(v036, 0, none), outcome: webhookprobe.Failed, detail: detailBare504, dialTimeout: 8 * time.Second,
			after: figures(v036, 0, none), cause: TargetUnreachable, inFix: []string{targetFix(webhookprobe.Failed)}},
		{name: "a stuck dial and an answer meanwhile: no verdict on either", before: figures(v028, 0, none), detail: detailSilent, dialTimeout: 5 * time.Second,
			after: figures(v028, 1, map[string]int{"error_response": 1}), cause: TargetUnreachable, notInFix: []string{"delete its pod", "drops packets"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := fromStatus(tc.before, 1, 1)
			read := false
			outcome := tc.outcome
			if outcome == "" {
				outcome = webhookprobe.Timeout
			}
			judgeDial(v, Target{Name: "t", Address: "198.51.100.9:443", Outcome: outcome, Detail: tc.detail}, tc.dialTimeout,
				func() *hoststatus.Report { read = true; return tc.after })
			if read != (tc.after != nil) {
				t.Errorf("second read made: %v; want %v", read, tc.after != nil)
			}
			if v.Cause != tc.cause {
				t.Errorf("cause %s; want %s\n  %s\n  fix: %s", v.Cause, tc.cause, v.Detail, v.Fix)
			}
			for _, w := range tc.inDetail {
				if !strings.Contains(v.Detail, w) {
					t.Errorf("detail %q does not say %q", v.Detail, w)
				}
			}
			for _, w := range tc.inFix {
				if !strings.Contains(v.Fix, w) {
					t.Errorf("fix %q does not say %q", v.Fix, w)
				}
			}
			for _, w := range tc.notInFix {
				if strings.Contains(v.Fix, w) {
					t.Errorf("fix %q says %q", v.Fix, w)
				}
			}
		})
	}
}
