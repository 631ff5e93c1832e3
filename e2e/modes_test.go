//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
)

// modesConfig sizes TestModes; `make modes` sets the large case.
type modesConfig struct {
	agents  int // KB_MODES_AGENTS: agents, each in its own node namespace
	callers int // KB_MODES_CALLERS: concurrent webhook callers
	reps    int // KB_MODES_REPS: repetitions; each runs both modes, the order alternating
}

func modesConfigFromEnv(t *testing.T) modesConfig {
	t.Helper()
	return modesConfig{
		agents:  envInts(t, "KB_MODES_AGENTS", 4)[0],
		callers: envInts(t, "KB_MODES_CALLERS", 8)[0],
		reps:    envInts(t, "KB_MODES_REPS", 1)[0],
	}
}

// TestModes measures http-connect against grpc on the proxy version
// KB_PROXY_VERSION names, under the faults the rest of the suite runs: no
// fault, a frozen agent, a killed agent, a restarted server. Both modes run
// in the same test, one after the other, the order alternating per
// repetition, so a machine whose load drifts biases neither. The callers
// are the kube-apiserver's own egress dialer (k8s.io/apiserver, built from
// the rendered egress file) with its webhook client's HTTP/1.1 pool, not a
// kube-apiserver process: two apiservers and etcds per mode would take the
// cores the figures measure. It asserts only what must hold in both modes
// (no call fails without a fault, calls succeed again after each fault,
// every agent comes back); the rest are figures, printed side by side.
// It takes minutes, so it runs only when KB_MODES=1 (`make modes`).
func TestModes(t *testing.T) {
	if os.Getenv("KB_MODES") != "1" {
		t.Skip("the mode comparison takes minutes; run it with `make modes` (KB_MODES=1)")
	}
	cfg := modesConfigFromEnv(t)
	book := newModesBook()
	t.Cleanup(func() { book.print(cfg) })
	modes := [2]string{bundle.ModeHTTPConnect, bundle.ModeGRPC}
	for rep := range cfg.reps {
		order := modes
		if rep%2 == 1 {
			order = [2]string{modes[1], modes[0]}
		}
		for _, mode := range order {
			t.Run(fmt.Sprintf("rep %d/%s", rep+1, mode), func(t *testing.T) {
				c := newModeCase(t, mode, cfg)
				for _, p := range modePhases {
					t.Run(p.name, func(t *testing.T) { book.add(mode, p.name, c.run(t, p)) })
				}
			})
		}
	}
}

// modeCase is one mode's tunnel: a rendered bundle mapped onto a scale
// topology, the webhook in the pod network, a server and cfg.agents agents.
type modeCase struct {
	mode   string
	cfg    modesConfig
	st     *scaleTopology
	h      *bootstrapHost
	wh     *webhook
	agents []*proctest.Proc
	admin  string
	call   func() error // one webhook call as the bootstrap kube-apiserver makes it
}

func newModeCase(t *testing.T, mode string, cfg modesConfig) *modeCase {
	t.Helper()
	c := &modeCase{mode: mode, cfg: cfg, st: newScaleTopology(t, cfg.agents), agents: make([]*proctest.Proc, cfg.agents)}
	root := shortRoot(t)
	renderInto(t, root, mode, scaleFam)
	c.h = mapBundle(t, c.st.topology, root)
	c.wh = startWebhook(t, c.st.pod, scaleFam.webhookIP)
	c.admin = flagValue(t, c.h.server.argv, "--admin-port")
	c.call = rawWebhookCall(t, kasWebhookClient(kasClusterDialer(t, c.h.kasEgress), c.wh.caPEM), scaleFam.webhookIP)
	t.Cleanup(c.killAgents)
	c.h.startServer(t)
	for i := range c.agents {
		c.startAgent(t, i)
	}
	c.waitReady(t)
	return c
}

func (c *modeCase) startAgent(t *testing.T, i int) {
	c.agents[i] = proctest.Launch(t, proctest.Spec{NS: c.st.nodes[i], Name: fmt.Sprintf("proxy-agent-%d", i), LogDir: c.h.dir, Argv: c.h.agent.argv})
}

// killAgents SIGKILLs every agent at once (SIGKILL also ends a stopped one).
func (c *modeCase) killAgents() {
	var wg sync.WaitGroup
	for _, p := range c.agents {
		if p != nil {
			wg.Add(1)
			go func() { defer wg.Done(); p.Kill() }()
		}
	}
	wg.Wait()
}

// waitReady waits (generously) until every agent is connected and a call
// gets through.
func (c *modeCase) waitReady(t *testing.T) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	if _, err := waitAgents(ctx, nsHTTP(c.st.boot), c.admin, len(c.agents), start); err != nil {
		t.Fatalf("%s: %v", c.mode, err)
	}
	if _, err := eventually(tunnelWait, 10*time.Millisecond, c.call); err != nil {
		t.Fatalf("%s: no webhook call through the tunnel: %v", c.mode, err)
	}
	return time.Since(start)
}

// freshServer replaces the server, so each phase's gauges start from zero.
func (c *modeCase) freshServer(t *testing.T) {
	t.Helper()
	c.h.serverProc.Kill()
	c.h.startServer(t)
	c.waitReady(t)
}

// pending reads the server's pending_backend_dials gauge.
func (c *modeCase) pending(t *testing.T) int {
	t.Helper()
	n, err := serverGauge(nsHTTP(c.st.boot), c.admin, pendingDialsMetric)
	if err != nil {
		t.Fatalf("server metrics: %v", err)
	}
	return n
}

// goroutines reads the server's go_goroutines gauge (client_golang's Go
// collector, which both versions register); -1 when absent.
func (c *modeCase) goroutines() int {
	n, err := serverGauge(nsHTTP(c.st.boot), c.admin, "go_goroutines")
	if err != nil || n == 0 {
		return -1
	}
	return n
}

// busiest is the agent that relayed the most calls since before.
func (c *modeCase) busiest(before map[string]int) int {
	now, best, most := c.wh.sources(), 0, -1
	for i := range c.agents {
		ip := scalePodSideIP(i)
		if n := now[ip] - before[ip]; n > most {
			best, most = i, n
		}
	}
	return best
}
