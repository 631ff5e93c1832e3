package gate

import (
	"fmt"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// settleMargin is how long past an agent's answer is due the gate reads the
// server again: room for the answer to cross a slow, shared host.
const settleMargin = 2 * time.Second

// The server's dial failure reasons (dial_failure_count) that mean an agent
// answered a dial, and the one its own --backend-dial-timeout counts.
var answeredReasons = []string{"error_response", "unrecognized_response"}

const boundReason = "backend_dial_timeout"

// evidence is what the server's own figures say about one test dial that
// nothing answered before its deadline, read before the dial and again
// once any agent's answer was due. Only changes count: the absolute
// pending_backend_dials keeps dials a departed agent took (proxy v0.28 in
// http-connect mode, proxyversion.Version.KeepsDepartedDials), and it includes the
// test dial itself while that is still inside the agent's dial timeout.
type evidence struct {
	known    bool // both reads have the figures, from one server run
	pending  int  // pending_backend_dials, after minus before
	bound    int  // dials the server's --backend-dial-timeout ended
	answered int  // dials an agent answered with a failure
}

// evidenceOf compares the two reads. A counter that went down means the
// server restarted between them: nothing is known. Dials the server's own
// bound ended count only when that bound is longer than the agent's dial
// timeout: a shorter one ends dials a live agent would still answer.
func evidenceOf(before, after *hoststatus.Report) evidence {
	if before == nil || after == nil || before.PendingDials < 0 || after.PendingDials < 0 || before.DialFailures == nil || after.DialFailures == nil {
		return evidence{}
	}
	e := evidence{known: true, pending: after.PendingDials - before.PendingDials}
	for reason, n := range before.DialFailures {
		if after.DialFailures[reason] < n {
			return evidence{}
		}
	}
	if serverBoundOf(before) > proxyversion.AgentDialTimeout {
		e.bound = after.DialFailures[boundReason] - before.DialFailures[boundReason]
	}
	for _, r := range answeredReasons {
		e.answered += after.DialFailures[r] - before.DialFailures[r]
	}
	return e
}

// stuck: an agent took a dial and had not answered it once its own dial
// timeout had passed, and no agent answered one meanwhile.
func (e evidence) stuck() bool { return e.known && (e.pending > 0 || e.bound > 0) && e.answered == 0 }

// agentFailed: an agent answered a dial with a failure, and no dial is
// left waiting.
func (e evidence) agentFailed() bool {
	return e.known && e.answered > 0 && e.pending <= 0 && e.bound == 0
}

// String says the figures, for the verdict's detail.
func (e evidence) String() string {
	if !e.known {
		return "the server's dial figures could not be compared across the dial"
	}
	return fmt.Sprintf("across the dial the server's pending_backend_dials changed by %+d, dials its --%s ended by %+d, dial failures agents answered by %+d", e.pending, proxyversion.BackendDialTimeout.Flag, e.bound, e.answered)
}

// settleTime is how long after a test dial started every live agent's
// answer is due: proxy-agent's own dial timeout and a margin. A server
// bound longer than the agent's has either not fired yet then (the dial
// still pending) or has (counted): both show an agent that did not answer.
const settleTime = proxyversion.AgentDialTimeout + settleMargin

// serverBoundOf is the rendered server's dial bound
// (proxyversion.BackendDialTimeout), 0 for none (a version without the flag).
func serverBoundOf(rep *hoststatus.Report) time.Duration {
	if rep == nil || rep.Rendered == nil || rep.Rendered.Bundle.Server == nil {
		return 0
	}
	bound := proxyversion.BackendDialTimeout.Flag
	if v := rep.Tunnel().Version; v != nil && !v.Has(bound) {
		return 0
	}
	d, ok := rep.Rendered.Bundle.Server.Flags.Duration(bound)
	if !ok {
		return 0
	}
	return d
}
