//go:build e2e

package e2e

import (
	"fmt"
	"testing"
	"time"
)

// agentFaults SIGKILLs, under load, first an agent that relays no call, then
// the agent relaying the most, and reports what happened to the calls in
// flight; then status must count the agents left, and both must come back.
func (s *scaleRun) agentFaults(t *testing.T) {
	n := len(s.agents)
	if n < 2 {
		t.Skipf("needs at least 2 agents (one idle, one carrying calls), have %d", n)
	}
	before := s.e.wh.sources()
	run := startLoad(s.e.kas.client, s.maxCallers(), 4*s.cfg.calls, time.Minute)
	time.Sleep(time.Second)
	carrying := s.carriers(before)
	busiest, idle := -1, -1
	for i := range s.agents {
		if carrying[i] > 0 && (busiest < 0 || carrying[i] > carrying[busiest]) {
			busiest = i
		}
		if carrying[i] == 0 && idle < 0 {
			idle = i
		}
	}
	if busiest < 0 || idle < 0 {
		run.stop()
		t.Fatalf("after 1 s of load: agents relaying calls %v; need one busy and one idle agent", carrying)
	}
	idleKill := time.Now()
	s.agents[idle].Kill()
	time.Sleep(time.Second)
	busyKill := time.Now()
	s.agents[busiest].Kill()
	time.Sleep(2 * time.Second)
	calls := run.stop()
	end := time.Now()

	idleFailed, idleKinds := failedBetween(calls, idleKill, busyKill)
	busyFailed, busyKinds := failedBetween(calls, busyKill, end)
	back, ok := firstSuccessAfter(calls, busyKill)
	s.figure(fmt.Sprintf("N=%d C=%d: idle agent killed", n, s.maxCallers()), fmt.Sprintf("%d calls failed %v", idleFailed, idleKinds))
	s.figure(fmt.Sprintf("N=%d C=%d: busiest agent killed (%d of %d agents relayed calls)", n, s.maxCallers(), len(carrying), n),
		fmt.Sprintf("%d calls failed %v; next call started after the kill succeeded %v after it (ok=%v)",
			busyFailed, busyKinds, back.Round(time.Millisecond), ok))
	if !ok {
		t.Errorf("no call succeeded after the busiest agent was killed, with %d agents left", n-2)
	}

	s.waitAgents(t, n-2, time.Now())
	t.Run("status counts the agents left", func(t *testing.T) { s.truth(t, n-2) })
	restarted := time.Now()
	s.startAgent(t, idle)
	s.startAgent(t, busiest)
	took := s.waitAgents(t, n, restarted)
	s.figure(fmt.Sprintf("N=%d: two killed agents restarted, connected after", n), took.Round(time.Millisecond))
	t.Run("status counts them back", func(t *testing.T) { s.truth(t, n) })
}

// serverRestarts SIGKILLs and restarts the server under load, cfg.restarts
// times, and records when calls succeed again, when every agent is back, and
// the reconnecting herd's peak on the server.
func (s *scaleRun) serverRestarts(t *testing.T) {
	n, c := len(s.agents), s.maxCallers()
	var callsBack, allBack []time.Duration
	for r := range s.cfg.restarts {
		run := startLoad(s.e.kas.client, c, 20*s.cfg.calls, 2*time.Minute)
		time.Sleep(500 * time.Millisecond)
		s.e.h.serverProc.Kill()
		started := time.Now()
		s.e.h.startServer(t)
		stop, peak := make(chan struct{}), make(chan [2]float64, 1)
		go func(pid int) {
			rss, cpu := procPeak(pid, 100*time.Millisecond, stop)
			peak <- [2]float64{float64(rss), cpu}
		}(s.e.h.serverProc.Pid())
		all := s.waitAgents(t, n, started)
		time.Sleep(time.Second)
		calls := run.stop()
		close(stop)
		p := <-peak
		back, ok := firstSuccessAfter(calls, started)
		if !ok {
			t.Fatalf("restart %d: no webhook call succeeded after the server came back with %d agents", r, n)
		}
		failed, kinds := failedBetween(calls, started.Add(-time.Hour), started.Add(back))
		callsBack, allBack = append(callsBack, back), append(allBack, all)
		s.figure(fmt.Sprintf("N=%d C=%d: server restart %d", n, c, r+1), fmt.Sprintf(
			"calls succeed again after %v, all agents back after %v; %d calls failed %v; herd peak: %.2f cores, %s RSS",
			back.Round(time.Millisecond), all.Round(time.Millisecond), failed, kinds, p[1], mib(int64(p[0]))))
	}
	s.figure(fmt.Sprintf("N=%d C=%d: server restart, median of %d", n, c, len(callsBack)), fmt.Sprintf(
		"calls succeed again after %v, all agents back after %v",
		medianOf(callsBack).Round(time.Millisecond), medianOf(allBack).Round(time.Millisecond)))
	t.Run("status agrees after the restarts", func(t *testing.T) { s.truth(t, n) })
}

// outage is how long serverOutage keeps the server down: long enough for
// every agent's redial backoff to reach --sync-interval-cap.
const outage = 10 * time.Second

// serverOutage stops the server for longer than the agents' backoff takes
// to reach its cap, then starts it and records when every agent is back:
// the case of agents that were waiting for a server (a crashlooping static
// pod), where the cap, not the sync interval, decides.
func (s *scaleRun) serverOutage(t *testing.T) {
	n := len(s.agents)
	s.e.h.serverProc.Kill()
	time.Sleep(outage)
	started := time.Now()
	s.e.h.startServer(t)
	all := s.waitAgents(t, n, started)
	capFlag := flagValue(t, s.e.h.agent.argv, "--sync-interval-cap")
	s.figure(fmt.Sprintf("N=%d: server started after a %v outage", n, outage),
		fmt.Sprintf("all agents back after %v (--sync-interval-cap=%s)", all.Round(time.Millisecond), capFlag))
	t.Run("status agrees", func(t *testing.T) { s.truth(t, n) })
}
