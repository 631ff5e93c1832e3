//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
)

// The steps of TestReleaseCaller, in order. The frozen-agent sizes are the
// ones the pairs were first compared with: 16 calls, each bounded at 1 s.
const (
	callerFrozenCalls   = 16
	callerFrozenTimeout = time.Second
	callerDrainCap      = 45 * time.Second // past the grpc client's 30 s backstop
	callerTermWatch     = 35 * time.Second // past the kubelet's 30 s grace
)

// failsBeforeServer: the bootstrap namespace has no route to the webhook,
// and with no server a call fails, naming why.
func (c *callerCase) failsBeforeServer(t *testing.T) {
	addr := fmt.Sprintf("%s:%d", c.st.fam.webhookIP, webhookPort)
	if err := dialFrom(c.st.boot, addr); err == nil {
		t.Fatalf("dial %s from the bootstrap namespace succeeded; the test would prove nothing", addr)
	}
	r := c.call(t, 1, 1, 3*time.Second)
	if r.OK != 0 {
		t.Fatalf("a call succeeded with no server: %v", r)
	}
	want := c.h.socket // http-connect dials the socket itself
	if c.mode == bundle.ModeGRPC {
		want = "deadline exceeded" // the grpc client redials until the call's bound
	}
	if !strings.Contains(r.failures(), want) {
		t.Errorf("the failure does not say %q: %s", want, r.failures())
	}
	figures.add(c.name, "failure before the server starts", r.failures())
}

// startTunnel starts the server and both agents and waits for a call.
func (c *callerCase) startTunnel(t *testing.T) {
	t.Helper()
	c.h.startServer(t)
	for i := range c.agents {
		c.startAgent(t, i)
	}
	c.waitAgents(t, 2)
	start := time.Now()
	if _, err := eventually(tunnelWait, 50*time.Millisecond, func() error { return c.okCall(t) }); err != nil {
		t.Fatalf("no call through the tunnel: %v", err)
	}
	figures.add(c.name, "first call after both agents connected", time.Since(start).Round(time.Millisecond))
}

// startAgent starts agent i on node i; it runs until the case ends, not
// the step that started it.
func (c *callerCase) startAgent(t *testing.T, i int) {
	c.agents[i] = proctest.Launch(t, proctest.Spec{NS: c.st.nodes[i], Name: fmt.Sprintf("proxy-agent-%d", i), LogDir: c.h.dir, Argv: c.h.agent.argv})
	c.agents[i].StopWith(c.owner)
}

func (c *callerCase) waitAgents(t *testing.T, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), tunnelWait)
	defer cancel()
	if _, err := waitAgents(ctx, c.boot, c.admin, n, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// okCall is nil when one call gets an answer.
func (c *callerCase) okCall(t *testing.T) error {
	if r := c.call(t, 1, 1, 5*time.Second); r.OK != 1 {
		return fmt.Errorf("call failed: %s", r.failures())
	}
	return nil
}

// throughTunnel: every call of a batch is answered, and only the agents'
// pod-side addresses called the webhook.
func (c *callerCase) throughTunnel(t *testing.T) {
	r := c.call(t, 100, 4, 5*time.Second)
	if r.OK != r.Calls {
		t.Errorf("%v; failures: %s", r, r.failures())
	}
	for src := range c.wh.sources() {
		if src != scalePodSideIP(0) && src != scalePodSideIP(1) {
			t.Errorf("the webhook saw a call from %s, not from an agent", src)
		}
	}
	figures.add(c.name, "100 calls, 4 at a time", r)
}

// pending reads the server's pending dials.
func (c *callerCase) pending(t *testing.T) int {
	t.Helper()
	n, err := serverGauge(c.boot, c.admin, pendingDialsMetric)
	if err != nil {
		t.Fatalf("server metrics: %v", err)
	}
	return n
}
