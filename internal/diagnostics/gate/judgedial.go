package gate

import (
	"context"
	"fmt"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// judgeDial makes the first failed test dial the verdict. A timeout is
// told apart by who ended it: an agent whose own dial to the target timed
// out (the target drops packets), the server's dial bound (no agent
// answered within it), or nobody before the test dial's deadline; for the
// last, and for a 504 that does not say which, the gate waits until every
// agent's answer is due and compares the server's dial figures across the
// dial (dialevidence.go). An agent is called stuck only on that evidence.
func (w *waiter) judgeDial(ctx context.Context, v *Verdict, t Target) {
	judgeDial(v, t, w.opts.DialTimeout, func() *hoststatus.Report { return w.settled(ctx) })
}

// judgeDial is the judgement itself; later is the server read once every
// agent's answer is due, made only when the dial's own words do not say
// who ended it.
func judgeDial(v *Verdict, t Target, dialTimeout time.Duration, later func() *hoststatus.Report) {
	f := finding{rep: v.Status, detail: fmt.Sprintf("%s (%s): %s: %s", t.Name, t.Address, t.Outcome, t.Detail), outcome: t.Outcome}
	switch answerOf(t) {
	case agentTimedOut:
		v.apply(stageRow(stageTargetDrops), f)
		return
	case serverBound:
		if bound := serverBoundOf(v.Status); bound > proxyversion.AgentDialTimeout {
			f.evidence = fmt.Sprintf("the server's --%s (%s) ended it, and a live agent answers within its own %s dial timeout", proxyversion.BackendDialTimeout.Flag, bound, proxyversion.AgentDialTimeout)
			v.apply(stageRow(stageStuckAgent), f)
			return
		}
	case unanswered:
		e := evidenceOf(v.Status, later())
		switch {
		case e.stuck():
			f.evidence = e.String()
			v.apply(stageRow(stageStuckAgent), f)
			return
		case e.agentFailed():
			f.evidence = "an agent answered with a dial failure after the test dial gave up: " + e.String()
			v.apply(stageRow(stageTargetDrops), f)
			return
		}
		f.detail += fmt.Sprintf("; no answer within --dial-timeout %s, and %s, so neither a stuck agent nor a target that drops packets is shown", dialTimeout, e)
	case gatewayTimeout:
		// The answer is in: only who gave it is asked, not what is pending
		// (the probe's second CONNECT for the body may still be).
		switch e := evidenceOf(v.Status, later()); {
		case e.known && e.answered > 0 && e.bound == 0:
			f.evidence = "the server's 504 passes on an agent's answer that its dial timed out: " + e.String()
			v.apply(stageRow(stageTargetDrops), f)
			return
		case e.known && e.bound > 0 && e.answered == 0:
			f.evidence = e.String()
			v.apply(stageRow(stageStuckAgent), f)
			return
		}
	}
	v.apply(stageRow(stageTestDial), f)
}

// settled is a status run once every agent's answer to the test dials is
// due: settleTime after the first of them started, which was at least
// --dial-timeout before now (the dial that got no answer took all of it).
func (w *waiter) settled(ctx context.Context) *hoststatus.Report {
	if wait := settleTime - w.opts.DialTimeout; wait > 0 {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
	return hoststatus.Run(ctx, w.opts.Status)
}

// stuckAgentFix says to replace the stuck agent and, where the server
// never drops the dials such an agent took (proxy v0.28 in http-connect
// mode), that only a server restart clears them.
func stuckAgentFix(f finding) string {
	fix := "an agent is frozen or cut off from the bootstrap host mid-stream: find it (`oc -n openshift-bootstrap-konnectivity get pods -o wide`; its node is NotReady or its logs stop) and delete its pod"
	if f.rep == nil || f.rep.Rendered == nil || f.rep.Rendered.Bundle.Server == nil {
		return fix
	}
	ver := f.rep.Tunnel().Version
	if ver == nil {
		return fix
	}
	if bound := proxyversion.BackendDialTimeout.Flag; !ver.Has(bound) {
		fix += fmt.Sprintf("; proxy %s has no --%s, so every dial handed to that agent waits for the caller's own timeout", ver, bound)
	}
	if ver.KeepsDepartedDials && f.rep.Rendered.Bundle.Server.Flags.ValueOr("mode") == proxyversion.ModeHTTPConnect {
		fix += fmt.Sprintf("; in http-connect mode proxy %s never drops the dials such an agent took, even once its pod is gone (pending_backend_dials stays raised): only a proxy-server restart clears them. "+
			"On the bootstrap host: crictl stop $(crictl ps -q --name konnectivity-server); the kubelet starts the static pod's container again", ver)
	}
	return fix
}
