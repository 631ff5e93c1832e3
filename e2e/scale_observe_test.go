//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// readyBackendsMetric is the server's count of connected agents: for the
// default proxy strategy where the version reports readiness per strategy
// (v0.36, the number /readyz relies on), else its agent streams (v0.28
// has no per-strategy figure; proxyversion.ServerMetrics).
var readyBackendsMetric = func() string {
	if m := proxyVersion.Metrics; m.ReadyBackends != "" {
		return m.ReadyBackends + `{proxy_strategy="default"}`
	}
	return proxyVersion.Metrics.AgentStreams + `{service_method="` + proxyversion.ConnectMethod + `"}`
}()

// nsHTTP is an HTTP client whose connections are opened inside a namespace.
func nsHTTP(ns string) *http.Client {
	return &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DialContext: nsDialer(ns), Proxy: nil}}
}

// getText fetches url and returns status and body.
func getText(c *http.Client, url string) (int, string, error) {
	resp, err := c.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	return resp.StatusCode, string(b), err
}

// connectedAgents reads the server's ready-backend gauge from its admin port.
func connectedAgents(c *http.Client, adminPort string) (int, error) {
	return serverGauge(c, adminPort, readyBackendsMetric)
}

// serverGauge reads one sample (name with its labels, as the server prints
// it) from the server's /metrics on its admin port; 0 when the server has
// not printed it yet (a gauge with labels appears with its first value).
func serverGauge(c *http.Client, adminPort, sample string) (int, error) {
	code, body, err := getText(c, "http://"+net.JoinHostPort("127.0.0.1", adminPort)+"/metrics")
	if err != nil {
		return 0, err
	}
	if code != http.StatusOK {
		return 0, fmt.Errorf("metrics: HTTP %d", code)
	}
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), sample+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return int(f), err
		}
	}
	return 0, nil
}

// waitAgents polls the server until exactly want agents are connected; it
// returns the time since `since`.
func waitAgents(ctx context.Context, c *http.Client, adminPort string, want int, since time.Time) (time.Duration, error) {
	var last int
	var lastErr error
	for {
		n, err := connectedAgents(c, adminPort)
		if err == nil && n == want {
			return time.Since(since), nil
		}
		last, lastErr = n, err
		select {
		case <-ctx.Done():
			return time.Since(since), fmt.Errorf("%d of %d agents connected (last error %v)", last, want, lastErr)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// procSample is a process's resident memory and CPU time used so far.
type procSample struct {
	at  time.Time
	rss int64         // bytes
	cpu time.Duration // user + system
}

// sampleProc reads /proc/<pid>/status and /proc/<pid>/stat.
func sampleProc(pid int) (procSample, error) {
	s := procSample{at: time.Now()}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			s.rss = kb << 10
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return s, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(f) < 13 {
		return s, fmt.Errorf("short /proc/%d/stat", pid)
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	s.cpu = time.Duration(utime+stime) * (time.Second / clockTicks)
	return s, nil
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times: 100 on every
// Linux architecture Go supports.
const clockTicks = 100

// cpuShare is the CPU used between two samples as a fraction of one core.
func cpuShare(a, b procSample) float64 {
	wall := b.at.Sub(a.at)
	if wall <= 0 {
		return 0
	}
	return float64(b.cpu-a.cpu) / float64(wall)
}

// procPeak samples pid every interval until stop is closed and returns the
// highest RSS and the highest CPU share over any one interval.
func procPeak(pid int, interval time.Duration, stop <-chan struct{}) (peakRSS int64, peakCPU float64) {
	prev, err := sampleProc(pid)
	if err != nil {
		return 0, 0
	}
	peakRSS = prev.rss
	for {
		select {
		case <-stop:
			return peakRSS, peakCPU
		case <-time.After(interval):
		}
		s, err := sampleProc(pid)
		if err != nil {
			return peakRSS, peakCPU
		}
		peakRSS = max(peakRSS, s.rss)
		peakCPU = max(peakCPU, cpuShare(prev, s))
		prev = s
	}
}

func mib(b int64) string { return fmt.Sprintf("%.1fMiB", float64(b)/(1<<20)) }
