//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"os/exec"
	"sort"
	"sync"
	"testing"
	"time"
)

// restWindow is how long the server is watched at rest for its CPU figure.
const restWindow = 5 * time.Second

// connect starts a fresh server, then n agents at once, and records how long
// until all are connected and what they cost the server at rest; then the
// server, status and the agents must agree.
func (s *scaleRun) connect(t *testing.T, n int) {
	s.killAgents()
	if p := s.e.h.serverProc; p != nil {
		p.Kill()
	}
	s.e.h.startServer(t)
	time.Sleep(time.Second) // let the server settle before its baseline
	base, err := sampleProc(s.e.h.serverProc.Pid())
	if err != nil {
		t.Fatal(err)
	}
	launched := time.Now()
	for i := range n {
		s.startAgent(t, i)
	}
	took := s.waitAgents(t, n, launched)
	s.figure(fmt.Sprintf("N=%d: all agents connected after launch", n), took.Round(time.Millisecond))

	time.Sleep(2 * time.Second)
	pid := s.e.h.serverProc.Pid()
	a, _ := sampleProc(pid)
	time.Sleep(restWindow)
	b, err := sampleProc(pid)
	if err != nil {
		t.Fatal(err)
	}
	perAgent := (b.rss - base.rss) / int64(n)
	s.figure(fmt.Sprintf("N=%d: server RSS at rest", n), fmt.Sprintf("%s (%s with no agent, %.0f KiB per agent)",
		mib(b.rss), mib(base.rss), float64(perAgent)/1024))
	cpu := cpuShare(a, b)
	resolution := float64(time.Second/clockTicks) / float64(restWindow) * 1000
	s.figure(fmt.Sprintf("N=%d: server CPU at rest", n), fmt.Sprintf("%.1f millicores over %v (resolution %.0f)", cpu*1000, restWindow, resolution))
	s.truth(t, n)
}

// truth compares what the server says (metrics, /readyz) and what `status`
// says with what every agent says about itself (its own /readyz).
func (s *scaleRun) truth(t *testing.T, want int) {
	ready := s.agentsReady()
	if ready != want {
		t.Errorf("%d agents report /readyz ok, want %d", ready, want)
	}
	if n, err := connectedAgents(s.boot, s.adminPort); err != nil || n != ready {
		t.Errorf("server metrics: %d agents (%v), the agents say %d", n, err, ready)
	}
	code, body, err := getText(s.boot, "http://"+net.JoinHostPort("127.0.0.1", flagValue(t, s.e.h.server.argv, "--health-port"))+"/readyz")
	if (ready > 0) != (err == nil && code == 200) {
		t.Errorf("server /readyz: %d %q %v with %d agents ready", code, body, err, ready)
	}
	rep := s.status(t)
	if rep.Agents != ready || rep.Usable != (ready > 0) {
		t.Errorf("status: agents=%d usable=%v, the agents say %d are connected", rep.Agents, rep.Usable, ready)
	}
}

// agentsReady asks each started agent's health port whether it is connected.
func (s *scaleRun) agentsReady() int {
	var mu sync.Mutex
	ready := 0
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i, p := range s.agents {
		if p == nil || !p.Running() {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			c := nsHTTP(s.st.nodes[i])
			defer c.CloseIdleConnections()
			if code, _, err := getText(c, "http://"+net.JoinHostPort("127.0.0.1", s.healthPort)+"/readyz"); err == nil && code == 200 {
				mu.Lock()
				ready++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return ready
}

// statusReport is the part of `konnectivity-bundle status -o json` compared.
type statusReport struct {
	Agents int  `json:"agents"`
	Usable bool `json:"usable"`
}

// status runs the real `konnectivity-bundle status` on the bootstrap host.
func (s *scaleRun) status(t *testing.T) statusReport {
	t.Helper()
	out, err := exec.Command("ip", "netns", "exec", s.st.boot, cli(t), "status", "--root", s.e.root, "-o", "json").Output()
	var rep statusReport
	if jerr := json.Unmarshal(out, &rep); jerr != nil {
		t.Fatalf("status -o json: %v (exit %v):\n%s", jerr, err, out)
	}
	return rep
}

// production starts a KAS without the override on node 0, which reaches the
// webhook directly: the baseline of the load figures.
func (s *scaleRun) production(t *testing.T) *apiserver {
	prod := startAPIServer(t, s.st.nodes[0], "production-kas", scaleFam, scaleNodeIP(0))
	registerWebhook(t, prod.client, s.e.wh)
	waitAdmitted(t, prod.client, 30*time.Second)
	return prod
}

// load runs c callers through the tunnel, then against the production KAS.
func (s *scaleRun) load(t *testing.T, c int, prod *apiserver) {
	before := s.e.wh.sources()
	tunnel := summariseLoad(startLoad(s.e.kas.client, c, s.cfg.calls, s.cfg.seconds).wait())
	carriers := len(s.carriers(before))
	direct := summariseLoad(startLoad(prod.client, c, s.cfg.calls, s.cfg.seconds).wait())
	name := fmt.Sprintf("N=%d C=%d", len(s.agents), c)
	s.figure(name+": through the tunnel", tunnel)
	s.figure(name+": direct (production KAS)", direct)
	if direct.lat.p99 > 0 {
		s.figure(name+": tunnel p99 / direct p99", fmt.Sprintf("%.2fx; calls carried by %d agent(s)",
			float64(tunnel.lat.p99)/float64(direct.lat.p99), carriers))
	}
	if tunnel.failed > 0 || direct.failed > 0 {
		t.Errorf("failed calls under steady load: tunnel %d %v, direct %d %v", tunnel.failed, tunnel.errors, direct.failed, direct.errors)
	}
}

// carriers maps each agent (by index) that relayed webhook calls since
// before (a snapshot of the webhook's sources) to how many it relayed.
func (s *scaleRun) carriers(before map[string]int) map[int]int {
	out, now := map[int]int{}, s.e.wh.sources()
	for i := range s.agents {
		ip := scalePodSideIP(i)
		if n := now[ip] - before[ip]; n > 0 {
			out[i] = n
		}
	}
	return out
}

// median of durations.
func medianOf(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
