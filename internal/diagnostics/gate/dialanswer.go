package gate

import (
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
)

// dialAnswer is who ended a test dial that timed out.
type dialAnswer int

const (
	// answerOther: not a timeout, or one in words the gate does not
	// read; the test dial's general verdict.
	answerOther dialAnswer = iota
	// agentTimedOut: an agent answered; its own dial to the target timed
	// out (proxy-agent's fixed proxyversion.AgentDialTimeout).
	agentTimedOut
	// serverBound: the server's --backend-dial-timeout ended the dial:
	// no agent answered within it.
	serverBound
	// unanswered: the test dial's own deadline ended it with no answer
	// at all; an agent may still be dialing.
	unanswered
	// gatewayTimeout: proxy v0.36's 504 without its body, which the
	// kube-apiserver's dialer drops: the agent's own dial timed out, or
	// the server's bound ended the dial. The server's figures tell which.
	gatewayTimeout
)

// serverBoundText is in the server's answer when its
// --backend-dial-timeout ended a dial: the body of its 504 in
// http-connect mode, the DIAL_RSP error in grpc (proxy v0.36).
const serverBoundText = "timed out waiting for backend dial"

// answerOf reads who ended a timed-out test dial from its detail: the
// probe's own deadline, the server's bound, the agent's dial error as the
// proxy passed it on (`dial tcp ADDR: i/o timeout`), or a bare 504.
func answerOf(t Target) dialAnswer {
	d := t.Detail
	switch {
	case t.Outcome != webhookprobe.Timeout && t.Outcome != webhookprobe.Failed:
		return answerOther
	case egressprobe.Unanswered(d):
		return unanswered
	case strings.Contains(d, serverBoundText):
		return serverBound
	case strings.Contains(d, "dial tcp") && strings.Contains(d, "timeout"):
		return agentTimedOut
	case strings.Contains(d, "code 504"):
		return gatewayTimeout
	}
	return answerOther
}
