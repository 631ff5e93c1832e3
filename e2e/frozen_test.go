//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
)

// The frozen-agent experiment's sizes. The webhook's timeout is above the
// rendered 6 s dial bound and below admit's own 10 s, so each failure is the
// kube-apiserver's verdict, not the caller's.
const (
	frozenWebhookTimeout = 8 // seconds
	frozenCallers        = 8
	frozenWarmup         = 3 * time.Second  // load before the freeze
	frozenWindow         = 20 * time.Second // load after it
	frozenRecheck        = 8 * time.Second  // no load, past the rendered 6 s bound
	frozenDrainCap       = 90 * time.Second // how long to watch pending dials drain after the load
	pendingDialsMetric   = "konnectivity_network_proxy_server_pending_backend_dials"
)

// frozenMode is a server mode and how the kube-apiserver reports a dial
// the server's bound ended in it.
type frozenMode struct {
	mode      string
	boundText string // in the kube-apiserver's error when the bound ended the dial
	boundKind string // that failure's name in figures
	cancels   bool   // the kube-apiserver cancels the dials it gave up on (DIAL_CLS)
}

// Without the bound, a dial the frozen agent never answers outlives its
// caller in both modes: in http-connect the server never notices the
// caller leave and drops the dial only with the agent; in grpc the
// kube-apiserver's konnectivity-client cancels it, but only at its own 30 s
// backstop (see cancelledDials).
var frozenModes = []frozenMode{
	{bundle.ModeHTTPConnect, "code 504", kindDialTimeout, false},                       // the server's answer to the CONNECT
	{bundle.ModeGRPC, "timed out waiting for backend dial", kindGRPCDialTimeout, true}, // the server's DIAL_RSP error
}

// TestFrozenAgentUnderLoad: in each mode, two real agents, one frozen
// (SIGSTOP) while 8 callers create objects through the real bootstrap
// kube-apiserver, whose webhook (timeout 8 s, failurePolicy Fail) is reached
// through the tunnel; with the rendered --backend-dial-timeout=6s and with
// upstream's 0s. Two webhook servers: one that closes every connection (each
// call is a dial through the tunnel), one that keeps them alive (the
// kube-apiserver reuses connections and dials only when its pool needs one).
// Asserted, for the dialing webhook: with 6s every call started after the
// freeze that failed, failed with the server's dial timeout, and no dial is
// left pending on the server; with 0s none got it, some waited out the
// webhook's timeout, and dials to the frozen agent stay pending after every
// caller gave up (in grpc until the kube-apiserver cancels them itself,
// which it never needs to with the bound). Both: calls still succeed
// through the other agent. Times are figures.
func TestFrozenAgentUnderLoad(t *testing.T) {
	for _, m := range frozenModes {
		t.Run(m.mode, func(t *testing.T) { runFrozen(t, m) })
	}
}

func runFrozen(t *testing.T, m frozenMode) {
	st := newScaleTopology(t, 2)
	e := newEnvOn(t, "frozen/"+m.mode, m.mode, st.topology)
	setWebhookTimeout(t, e.kas.client, frozenWebhookTimeout)
	e.figure("machine", machine())
	rendered := append([]string(nil), e.h.server.argv...)
	type flagCase struct {
		name    string
		extra   []string
		bounded bool
	}
	cases := []flagCase{{"rendered 6s", nil, true}, {"upstream 0s", []string{"--backend-dial-timeout=0s"}, false}}
	if !proxyVersion.Has("backend-dial-timeout") {
		// v0.28 (OpenShift 4.14 to 4.22) has no bound to set: the rendered
		// server is the unbounded one.
		cases = []flagCase{{"rendered, no flag (" + proxyVersion.Name + ")", nil, false}}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.h.server.argv = append(append([]string(nil), rendered...), tc.extra...)
			f := &frozenCase{e: e, st: st, m: m, boot: nsHTTP(st.boot), admin: flagValue(t, rendered, "--admin-port")}
			t.Run("every call dials", func(t *testing.T) {
				r := f.run(t, false)
				r.figures(e, tc.name+", every call dials")
				r.assertDialing(t, m, tc.bounded)
			})
			t.Run("kept-alive connections", func(t *testing.T) {
				r := f.run(t, true)
				r.figures(e, tc.name+", kept alive")
				if r.okAfter == 0 {
					t.Errorf("no call succeeded after the freeze through the live agent")
				}
			})
		})
	}
}

// frozenCase runs one phase at a time on a fresh server and two fresh agents.
type frozenCase struct {
	e     *env
	st    *scaleTopology
	m     frozenMode
	boot  *http.Client
	admin string
	log   int // where this phase's server log starts (one file for every restart)
}

// run starts the server and two agents, loads the kube-apiserver, freezes
// the agent that relayed the most warm-up calls, and reads what followed.
// The agents are killed only once the pending dials drained (or the cap
// passed): killing the frozen one closes its connection, which would end
// them at once.
func (f *frozenCase) run(t *testing.T, keepAlive bool) *frozenRun {
	f.e.wh.srv.SetKeepAlivesEnabled(keepAlive)
	agents := f.start(t)
	before := f.e.wh.sources()
	load := startLoad(f.e.kas.client, frozenCallers, 1<<30, frozenWarmup+frozenWindow)
	time.Sleep(frozenWarmup)
	r := &frozenRun{}
	now := f.e.wh.sources()
	for i := range r.carried {
		r.carried[i] = now[scalePodSideIP(i)] - before[scalePodSideIP(i)]
	}
	if r.carried[1] > r.carried[0] {
		r.frozen = 1
	}
	freeze := time.Now()
	agents[r.frozen].Signal(syscall.SIGSTOP)
	calls := load.wait()
	loadEnd := time.Now()
	r.pendingEnd = f.pending(t)
	time.Sleep(frozenRecheck)
	r.pendingLater = f.pending(t)
	if !keepAlive { // the pool's few dials there go the same way; not worth 20 to 30 s a mode
		r.drain = f.drain(t, r.pendingLater, loadEnd, freeze)
	}
	r.cancelled = cancelledDials(f.e.h.serverProc.Log()[f.log:])
	for _, a := range agents {
		a.Kill() // SIGKILL ends a stopped process too
	}
	r.read(t, calls, freeze, f.m)
	return r
}

// start (re)starts the server with the case's flags and two agents, one
// per node, and waits until both are connected and a call gets through.
func (f *frozenCase) start(t *testing.T) [2]*proctest.Proc {
	if p := f.e.h.serverProc; p != nil {
		p.Kill()
	}
	f.e.h.startServer(t)
	f.log = len(f.e.h.serverProc.Log())
	var agents [2]*proctest.Proc
	for i := range agents {
		agents[i] = proctest.Start(t, proctest.Spec{NS: f.st.nodes[i], Name: fmt.Sprintf("proxy-agent-%d", i), LogDir: f.e.h.dir, Argv: f.e.h.agent.argv})
	}
	ctx, cancel := context.WithTimeout(context.Background(), tunnelWait)
	defer cancel()
	if _, err := waitAgents(ctx, f.boot, f.admin, 2, time.Now()); err != nil {
		t.Fatal(err)
	}
	waitAdmitted(t, f.e.kas.client, tunnelWait)
	return agents
}

func (f *frozenCase) pending(t *testing.T) int {
	n, err := serverGauge(f.boot, f.admin, pendingDialsMetric)
	if err != nil {
		t.Fatalf("server metrics: %v", err)
	}
	return n
}

// frozenDrain is how the dials still pending after the recheck went.
type frozenDrain struct {
	left                   int           // still pending at the cap; 0 if they drained
	afterLoad, afterFreeze time.Duration // when none was left
}

// drain polls the pending dials, with the agent still frozen and no load,
// until none is left or frozenDrainCap has passed since the load ended.
func (f *frozenCase) drain(t *testing.T, n int, loadEnd, freeze time.Time) *frozenDrain {
	if n == 0 {
		return &frozenDrain{}
	}
	for n > 0 && time.Since(loadEnd) < frozenDrainCap {
		time.Sleep(time.Second)
		n = f.pending(t)
	}
	if n > 0 {
		return &frozenDrain{left: n}
	}
	return &frozenDrain{afterLoad: time.Since(loadEnd), afterFreeze: time.Since(freeze)}
}

// String is the drain's figure.
func (d *frozenDrain) String() string {
	switch {
	case d == nil:
		return "drain not watched"
	case d.afterLoad == 0 && d.left == 0:
		return "none left to drain"
	case d.left > 0:
		return fmt.Sprintf("%d still pending %v after the load", d.left, frozenDrainCap)
	}
	return fmt.Sprintf("drained %v after the load (%v after the freeze)", d.afterLoad.Round(time.Second), d.afterFreeze.Round(time.Second))
}
