//go:build e2e

package e2e

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// The steps of TestTunnel, in order.

// noRouteToPods proves that a webhook call from the bootstrap KAS can only
// succeed through the tunnel.
func (e *env) noRouteToPods(t *testing.T) {
	addr := net.JoinHostPort(e.fam.webhookIP, fmt.Sprint(webhookPort))
	if err := dialFrom(e.tp.boot, addr); err == nil {
		t.Fatalf("dial %s from the bootstrap namespace succeeded; the test would prove nothing", addr)
	}
	if err := dialFrom(e.tp.node, addr); err != nil {
		t.Fatalf("dial %s from the node namespace: %v", addr, err)
	}
}

// failsBeforeServer: the KAS is up, the server is not. http-connect dials the
// UDS itself and fails at once, naming the socket; the grpc client keeps
// redialling until the webhook's timeoutSeconds ends the call.
func (e *env) failsBeforeServer(t *testing.T) {
	want := []string{e.h.socket, "no such file or directory"}
	if e.mode == bundle.ModeGRPC {
		want = []string{"context deadline exceeded"}
	}
	var took time.Duration
	_, err := eventually(tunnelWait, 50*time.Millisecond, func() error {
		start := time.Now()
		err := admit(e.kas.client, false)
		took = time.Since(start)
		if err == nil {
			return errors.New("admitted: webhook configuration not active yet")
		}
		for _, w := range want {
			if strings.Contains(err.Error(), w) {
				t.Logf("before the server (%v): %v", took.Round(time.Millisecond), err)
				return nil
			}
		}
		return fmt.Errorf("error does not contain any of %q: %w", want, err)
	})
	if err != nil {
		t.Fatal(err)
	}
	e.figure("webhook failure before the server starts", took.Round(time.Millisecond))
}

// startTunnel starts server then agent, with no KAS restart, and times the
// first webhook call that gets through.
func (e *env) startTunnel(t *testing.T) {
	t.Helper()
	e.h.startServer(t)
	e.h.startAgent(t, e.h.agent.argv)
	first, err := eventually(tunnelWait, 10*time.Millisecond, func() error { return admit(e.kas.client, false) })
	if err != nil {
		t.Fatalf("no webhook call through the tunnel after agent start: %v", err)
	}
	e.figure("first webhook call after agent start", first.Round(time.Millisecond))
}

// admitsThroughTunnel: allowed and denied, and every call came from the agent.
func (e *env) admitsThroughTunnel(t *testing.T) {
	checkAdmission(t, e.kas.client)
	if src := e.wh.sources(); len(src) != 1 || src[e.fam.nodePodIP] == 0 {
		t.Errorf("webhook saw calls from %v, want only the node's pod-network address %s (the agent)", src, e.fam.nodePodIP)
	}
}

// rawLatency compares webhook round trips through the KAS's own egress dialer
// with direct ones from the node, without any apiserver in the way.
func (e *env) rawLatency(t *testing.T) {
	viaTunnel := measureRaw(t, webhookClient(kasClusterDialer(t, e.h.kasEgress), e.wh.caPEM), e.fam.webhookIP)
	direct := measureRaw(t, webhookClient(nsDialer(e.tp.node), e.wh.caPEM), e.fam.webhookIP)
	e.figure("raw round trip through the tunnel", viaTunnel)
	e.figure("raw round trip direct from the node", direct)
	e.figure("raw tunnel overhead (median difference)", (viaTunnel.median - direct.median).Round(10*time.Microsecond))
}

// serverRestart crashes the server and times the way back.
func (e *env) serverRestart(t *testing.T) {
	failed := strings.Count(e.h.agentProc.Log(), "cannot connect once")
	e.h.serverProc.Kill()
	e.h.startServer(t)
	took := waitAdmitted(t, e.kas.client, tunnelWait)
	// The agent redials on its sync tick; each failed attempt (server not
	// listening yet) stretches the next wait by 1.5x, hence the count.
	failed = strings.Count(e.h.agentProc.Log(), "cannot connect once") - failed
	e.figure("reconnect after server restart", fmt.Sprintf("%v (%d failed agent dials)", took.Round(time.Millisecond), failed))
}

// agentRestart crashes the agent and times the way back.
func (e *env) agentRestart(t *testing.T) {
	e.h.agentProc.Kill()
	e.h.startAgent(t, e.h.agent.argv)
	took := waitAdmitted(t, e.kas.client, tunnelWait)
	e.figure("reconnect after agent restart", took.Round(time.Millisecond))
}

// production: a KAS without the override, in the node namespace, reaches the
// webhook directly, with the tunnel up and with it gone.
func (e *env) production(t *testing.T, tunnel latency) {
	prod := startAPIServer(t, e.tp.node, "production-kas", e.fam, e.fam.nodeIP)
	registerWebhook(t, prod.client, e.wh)
	waitAdmitted(t, prod.client, tunnelWait)
	checkAdmission(t, prod.client)
	direct := measure(t, prod.client)
	e.figure("webhook latency direct (production KAS)", direct)
	e.figure("tunnel overhead (median difference)", (tunnel.median - direct.median).Round(10*time.Microsecond))

	e.h.agentProc.Stop()
	e.h.serverProc.Stop()
	checkAdmission(t, prod.client)
	if err := admit(e.kas.client, false); err == nil {
		t.Errorf("bootstrap KAS admitted with the tunnel down; failurePolicy Fail should refuse")
	}
}
