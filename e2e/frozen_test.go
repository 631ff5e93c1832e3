//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

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
	pendingDialsMetric   = "konnectivity_network_proxy_server_pending_backend_dials"
)

// Failure kinds of a webhook call through a frozen agent, from the
// kube-apiserver's error text.
const (
	kindDialTimeout    = "dial timeout (server's 504)"
	kindWebhookTimeout = "webhook timeout"
	kindOther          = "other"
)

func frozenKind(err error) string {
	switch s := err.Error(); {
	case strings.Contains(s, "code 504"):
		return kindDialTimeout
	case strings.Contains(s, "deadline exceeded"), strings.Contains(s, "Timeout exceeded"):
		return kindWebhookTimeout
	}
	return kindOther
}

// TestFrozenAgentUnderLoad: two real agents, one frozen (SIGSTOP) while 8
// callers create objects through the real bootstrap kube-apiserver, whose
// webhook (timeout 8 s, failurePolicy Fail) is reached through the tunnel;
// with the rendered --backend-dial-timeout=6s and with upstream's 0s. Two
// webhook servers: one that closes every connection (each call is a dial
// through the tunnel), one that keeps them alive (the kube-apiserver reuses
// connections and dials only when its pool needs one). Asserted, for the
// dialing webhook: with 6s every call started after the freeze that failed,
// failed with the server's 504, and no dial is left pending on the server;
// with 0s none got a 504, some waited out the webhook's timeout, and dials
// to the frozen agent stay pending after every caller gave up. Both: calls
// still succeed through the other agent. Times are figures.
func TestFrozenAgentUnderLoad(t *testing.T) {
	st := newScaleTopology(t, 2)
	e := newEnvOn(t, "frozen/"+bundle.ModeHTTPConnect, bundle.ModeHTTPConnect, st.topology)
	setWebhookTimeout(t, e.kas.client, frozenWebhookTimeout)
	e.figure("machine", machine())
	rendered := append([]string(nil), e.h.server.argv...)
	for _, tc := range []struct {
		name    string
		extra   []string
		bounded bool
	}{
		{"rendered 6s", nil, true},
		{"upstream 0s", []string{"--backend-dial-timeout=0s"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.h.server.argv = append(append([]string(nil), rendered...), tc.extra...)
			f := &frozenCase{e: e, st: st, boot: nsHTTP(st.boot), admin: flagValue(t, rendered, "--admin-port")}
			t.Run("every call dials", func(t *testing.T) {
				r := f.run(t, false)
				r.figures(e, tc.name+", every call dials")
				r.assertDialing(t, tc.bounded)
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
	boot  *http.Client
	admin string
}

// frozenRun is what one phase saw.
type frozenRun struct {
	failedAfter  map[string][]time.Duration // by kind: calls started after the freeze that failed, and how long each took
	okAfter      int
	failedBefore int     // calls in flight at the freeze that failed
	carried      [2]int  // warm-up calls each agent relayed
	frozen       int     // which agent was frozen
	pendingEnd   int     // the server's pending dials when the load ended
	pendingLater int     // and once the rendered bound has passed with no load
	perSecond    float64 // successful calls per second after the freeze
}

// run starts the server and two agents, loads the kube-apiserver, freezes
// the agent that relayed the most warm-up calls, and reads what followed.
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
	r.pendingEnd = f.pending(t)
	time.Sleep(frozenRecheck)
	r.pendingLater = f.pending(t)
	for _, a := range agents {
		a.Kill() // SIGKILL ends a stopped process too
	}
	r.read(calls, freeze)
	return r
}

// start (re)starts the server with the case's flags and two agents, one
// per node, and waits until both are connected and a call gets through.
func (f *frozenCase) start(t *testing.T) [2]*proctest.Proc {
	if p := f.e.h.serverProc; p != nil {
		p.Kill()
	}
	f.e.h.startServer(t)
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

// read sorts the calls into those in flight at the freeze and those after.
func (r *frozenRun) read(calls []call, freeze time.Time) {
	r.failedAfter = map[string][]time.Duration{}
	var first, last time.Time
	for _, c := range calls {
		switch {
		case c.start.Before(freeze):
			if c.err != nil && c.end.After(freeze) {
				r.failedBefore++
			}
		case c.err != nil:
			k := frozenKind(c.err)
			r.failedAfter[k] = append(r.failedAfter[k], c.end.Sub(c.start))
		default:
			r.okAfter++
			if first.IsZero() {
				first = c.start
			}
			last = c.end
		}
	}
	if span := last.Sub(first); span > 0 {
		r.perSecond = float64(r.okAfter) / span.Seconds()
	}
}

// assertDialing checks the dialing webhook's phase against the flag.
func (r *frozenRun) assertDialing(t *testing.T, bounded bool) {
	if r.okAfter == 0 {
		t.Errorf("no call succeeded after the freeze through the live agent")
	}
	if n := len(r.failedAfter[kindOther]); n > 0 {
		t.Errorf("%d calls after the freeze failed otherwise than by a dial or webhook timeout", n)
	}
	dial, hung := len(r.failedAfter[kindDialTimeout]), len(r.failedAfter[kindWebhookTimeout])
	if bounded {
		if dial == 0 || hung > 0 {
			t.Errorf("with the bound: %d calls failed with the server's 504 and %d waited out the webhook's timeout; want some and none", dial, hung)
		}
		if r.pendingLater != 0 {
			t.Errorf("with the bound: %d dials still pending on the server once it passed", r.pendingLater)
		}
		return
	}
	if dial > 0 || hung == 0 {
		t.Errorf("without a bound: %d calls failed with a 504 and %d waited out the webhook's timeout; want none and some", dial, hung)
	}
	if r.pendingLater == 0 {
		t.Errorf("without a bound: no dial left pending on the server after every caller gave up")
	}
}

// figures records what the phase saw.
func (r *frozenRun) figures(e *env, name string) {
	var kinds []string
	for _, k := range []string{kindDialTimeout, kindWebhookTimeout, kindOther} {
		if ds := r.failedAfter[k]; len(ds) > 0 {
			kinds = append(kinds, fmt.Sprintf("%d %s (%s)", len(ds), k, spreadOf(ds)))
		}
	}
	if len(kinds) == 0 {
		kinds = []string{"none failed"}
	}
	e.figure(name, fmt.Sprintf("warm-up calls per agent %v, froze agent %d; %d in flight failed; after: %d ok (%.0f/s), %s; pending dials at end %d, %v later %d",
		r.carried, r.frozen, r.failedBefore, r.okAfter, r.perSecond, strings.Join(kinds, ", "), r.pendingEnd, frozenRecheck, r.pendingLater))
}

// spreadOf is the shortest and longest of ds.
func spreadOf(ds []time.Duration) string {
	lo, hi := ds[0], ds[0]
	for _, d := range ds {
		lo, hi = min(lo, d), max(hi, d)
	}
	return fmt.Sprintf("%s to %s", lo.Round(10*time.Millisecond), hi.Round(10*time.Millisecond))
}

// setWebhookTimeout sets the registered webhook's timeoutSeconds.
func setWebhookTimeout(t *testing.T, c kubernetes.Interface, seconds int32) {
	t.Helper()
	ctx := context.Background()
	api := c.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	cfg, err := api.Get(ctx, webhookCfgName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Webhooks[0].TimeoutSeconds = &seconds
	if _, err := api.Update(ctx, cfg, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// machine names the CPU and the load, for figures.
func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	load, _ := os.ReadFile("/proc/loadavg")
	return fmt.Sprintf("%s, load average %s", cpu, strings.Join(strings.Fields(string(load))[:3], " "))
}
