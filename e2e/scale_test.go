//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
)

// scaleConfig sizes TestScale. CI runs the small default; `make scale` sets
// the large case through the environment.
type scaleConfig struct {
	agents   []int         // KB_SCALE_AGENTS: one case per count, the last one kept for load and faults
	callers  []int         // KB_SCALE_CALLERS: concurrent webhook callers, one load run each
	restarts int           // KB_SCALE_RESTARTS: server restarts under load
	seconds  time.Duration // KB_SCALE_SECONDS: time budget of each load run
	calls    int           // call budget of each load run
}

func scaleConfigFromEnv(t *testing.T) scaleConfig {
	t.Helper()
	return scaleConfig{
		agents:   envInts(t, "KB_SCALE_AGENTS", 20),
		callers:  envInts(t, "KB_SCALE_CALLERS", 10),
		restarts: envInts(t, "KB_SCALE_RESTARTS", 1)[0],
		seconds:  time.Duration(envInts(t, "KB_SCALE_SECONDS", 5)[0]) * time.Second,
		calls:    5000,
	}
}

// envInts reads a comma-separated list of positive counts, def when unset.
func envInts(t *testing.T, name string, def int) []int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return []int{def}
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a comma-separated list of positive counts", name, v)
		}
		out = append(out, n)
	}
	return out
}

// scaleRun is the shared state of TestScale's steps.
type scaleRun struct {
	e          *env
	st         *scaleTopology
	owner      *testing.T
	cfg        scaleConfig
	agents     []*proctest.Proc // agents[i] runs in st.nodes[i]; nil when not started
	boot       *http.Client     // kept-alive client into the bootstrap namespace
	adminPort  string
	healthPort string // the agents'
}

// TestScale: many agents, each a proxy-agent process with the rendered args
// and Secret files in its own node namespace, one proxy-server, the
// bootstrap KAS and concurrent webhook callers. It asserts correctness only
// (every agent connects, no call fails under steady load, /readyz, metrics
// and `status` agree with the agents' own readiness); timings are figures.
func TestScale(t *testing.T) {
	cfg := scaleConfigFromEnv(t)
	n := slices.Max(cfg.agents)
	st := newScaleTopology(t, n)
	s := &scaleRun{e: newEnvOn(t, "scale/"+bundle.ModeHTTPConnect, bundle.ModeHTTPConnect, st.topology),
		st: st, owner: t, cfg: cfg, agents: make([]*proctest.Proc, n), boot: nsHTTP(st.boot)}
	s.adminPort = flagValue(t, s.e.h.server.argv, "--admin-port")
	s.healthPort = flagValue(t, s.e.h.agent.argv, "--health-server-port")
	t.Cleanup(s.killAgents)
	t.Run("bootstrap host has no route to the pod network", s.e.noRouteToPods)
	for _, count := range cfg.agents {
		t.Run(fmt.Sprintf("%d agents connect", count), func(t *testing.T) { s.connect(t, count) })
	}
	if t.Failed() {
		return
	}
	prod := s.production(t)
	for _, c := range cfg.callers {
		t.Run(fmt.Sprintf("%d callers", c), func(t *testing.T) { s.load(t, c, prod) })
	}
	t.Run("agents killed under load", s.agentFaults)
	t.Run("server restarted under load", s.serverRestarts)
	t.Run("server started after an outage", s.serverOutage)
}

// figure records one figure of the scale run.
func (s *scaleRun) figure(name string, value any) { s.e.figure(name, value) }

// maxCallers is the largest configured caller count, used for fault runs.
func (s *scaleRun) maxCallers() int { return slices.Max(s.cfg.callers) }

// startAgent starts agent i in its node namespace with the mapped DaemonSet
// args. killAgents, not a per-process cleanup, stops it.
func (s *scaleRun) startAgent(t *testing.T, i int) {
	s.agents[i] = proctest.Launch(t, proctest.Spec{NS: s.st.nodes[i], Name: fmt.Sprintf("proxy-agent-%d", i), LogDir: s.e.h.dir, Argv: s.e.h.agent.argv})
}

// killAgents SIGKILLs every running agent at once: stopping 200 agents one
// by one with proxy-agent's two-SIGTERM drain would take minutes.
func (s *scaleRun) killAgents() {
	var wg sync.WaitGroup
	for _, p := range s.agents {
		if p != nil {
			wg.Add(1)
			go func() { defer wg.Done(); p.Kill() }()
		}
	}
	wg.Wait()
	if s.owner.Failed() && s.agents[0] != nil {
		s.owner.Logf("--- last lines of proxy-agent-0 (%s):\n%s", s.agents[0].LogPath(), s.agents[0].Tail(30))
	}
}

// waitAgents waits (generously: no speed limit) for want connected agents.
func (s *scaleRun) waitAgents(t *testing.T, want int, since time.Time) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	took, err := waitAgents(ctx, s.boot, s.adminPort, want, since)
	if err != nil {
		t.Fatalf("waiting for %d agents: %v", want, err)
	}
	return took
}
