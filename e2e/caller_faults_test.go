//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// agentFrozen: one agent SIGSTOPped, 16 calls each bounded at 1 s, each
// its own dial (the webhook closes every connection), by a caller that then
// lives on as a kube-apiserver does. Some go through the live agent. Where
// the pair's tunnel ends a dial the frozen agent never answers (grpc: the
// client's DIAL_CLS; v0.36: the server's 6 s bound), the server's pending
// dials drain with the agent still frozen; v0.28 in http-connect mode keeps
// them until the agent answers. After the thaw every call is answered again.
func (c *callerCase) agentFrozen(t *testing.T) {
	c.wh.srv.SetKeepAlivesEnabled(false)
	defer c.wh.srv.SetKeepAlivesEnabled(true)
	if err := c.agents[1].Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	log := len(c.h.serverProc.Log())
	r, end, stop := c.lingeringCall(t, callerFrozenCalls, callerFrozenTimeout, callerDrainCap+10*time.Second)
	atOnce := c.pending(t)
	left, took := atOnce, time.Duration(0)
	for left > 0 && time.Since(end) < callerDrainCap {
		time.Sleep(time.Second)
		left, took = c.pending(t), time.Since(end)
	}
	stop()
	cancelled := len(cancelledDials(c.h.serverProc.Log()[log:]))
	figures.add(c.name, "agent frozen: 16 calls bounded at 1 s", fmt.Sprintf("%v; %s", r, r.failures()))
	figures.add(c.name, "agent frozen: pending dials after the calls", fmt.Sprintf("%s; %d cancelled by the client (DIAL_CLS)", drainText(atOnce, left, took), cancelled))
	if r.OK == 0 {
		t.Errorf("no call went through the live agent: %s", r.failures())
	}
	drains := c.mode == bundle.ModeGRPC || proxyVersion.Has("backend-dial-timeout")
	if drains && left > 0 {
		t.Errorf("pair %s, %s: %d dials still pending %v after the calls ended, with the agent frozen", c.pair, c.mode, left, callerDrainCap)
	}
	if err := c.agents[1].Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	c.allAnswered(t, "after the thaw")
}

// lingeringCall runs calls one at a time and reads the result while the
// caller lives on for linger; stop ends it.
func (c *callerCase) lingeringCall(t *testing.T, calls int, timeout, linger time.Duration) (r callerResult, end time.Time, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := c.caller(ctx, calls, 1, timeout)
	cmd.Args = append(cmd.Args, "-linger", linger.String())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		cancel()
		t.Fatalf("%s: %v", c.pair.Tool(), err)
	}
	stop = func() { cancel(); _ = cmd.Wait() }
	line, err := bufio.NewReader(out).ReadBytes('\n')
	end = time.Now()
	if err != nil {
		stop()
		t.Fatalf("%s printed %q: %v\n%s", c.pair.Tool(), line, err, stderr.String())
	}
	return c.read(t, line, nil), end, stop
}

// drainText is the pending-dials figure.
func drainText(atOnce, left int, took time.Duration) string {
	switch {
	case atOnce == 0:
		return "0 at once"
	case left > 0:
		return fmt.Sprintf("%d at once, %d after %v", atOnce, left, callerDrainCap)
	}
	return fmt.Sprintf("%d at once, 0 after %v", atOnce, took.Round(time.Second))
}

// allAnswered waits until a batch of 8 calls is answered in full.
func (c *callerCase) allAnswered(t *testing.T, when string) {
	t.Helper()
	start := time.Now()
	_, err := eventually(tunnelWait, 100*time.Millisecond, func() error {
		if r := c.call(t, 8, 2, 5*time.Second); r.OK != r.Calls {
			return fmt.Errorf("%v: %s", r, r.failures())
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	figures.add(c.name, "every call answered "+when, time.Since(start).Round(time.Millisecond))
}

// agentKilled: with one agent killed the calls, each its own dial, go
// through the other, and its replacement connects again.
func (c *callerCase) agentKilled(t *testing.T) {
	c.wh.srv.SetKeepAlivesEnabled(false)
	defer c.wh.srv.SetKeepAlivesEnabled(true)
	c.agents[1].Kill()
	r := c.call(t, 16, 1, 2*time.Second)
	figures.add(c.name, "agent killed: 16 calls at once after", fmt.Sprintf("%v; %s", r, r.failures()))
	c.allAnswered(t, "with one agent killed")
	c.startAgent(t, 1)
	c.waitAgents(t, 2)
}

// serverRestart: the server killed and started again; the agents redial
// and calls are answered again.
func (c *callerCase) serverRestart(t *testing.T) {
	c.h.serverProc.Kill()
	c.h.startServer(t)
	c.allAnswered(t, "after the server restart")
	c.waitAgents(t, 2)
}

// serverSIGTERM: SIGTERM while a caller holds kept-alive connections and
// keeps calling (2 callers, one call each per 250 ms); how long the server
// takes to exit is the pair's figure (a kubelet kills it at 30 s).
func (c *callerCase) serverSIGTERM(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := c.caller(ctx, 40, 2, time.Second)
	cmd.Args = append(cmd.Args, "-interval", "250ms")
	type ran struct {
		out []byte
		err error
	}
	done := make(chan ran, 1)
	go func() {
		out, err := cmd.Output()
		done <- ran{out, err}
	}()
	time.Sleep(time.Second)
	sent := time.Now()
	if err := c.h.serverProc.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exit := "still running at " + callerTermWatch.String()
	if err, ok := c.h.serverProc.Wait(callerTermWatch); ok {
		exit = fmt.Sprintf("exits (%v) %v after SIGTERM", err, time.Since(sent).Round(10*time.Millisecond))
	}
	got := <-done
	r := c.read(t, got.out, got.err)
	figures.add(c.name, "server SIGTERM with calls in flight", exit)
	figures.add(c.name, "server SIGTERM: the calls", fmt.Sprintf("%v; %s", r, r.failures()))
	if r.OK == 0 {
		t.Errorf("no call was answered before the SIGTERM: %s", r.failures())
	}
}
