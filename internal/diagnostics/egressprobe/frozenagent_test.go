package egressprobe_test

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
)

// callerTimeout stands for the kube-apiserver's default webhook timeout:
// how long a caller waits for a dial through the tunnel.
const callerTimeout = 10 * time.Second

// TestFrozenAgent freezes (SIGSTOP) one of two real agents and dials
// through the socket as the kube-apiserver does, with the rendered
// --backend-dial-timeout=6s and with upstream's 0s. Every dial the server
// hands to the frozen agent must end, with the flag, in the server's own
// answer (HTTP 504, "Backend dial timeout"), and without it only at the
// caller's timeout. A second round shows whether the server stopped
// choosing the frozen agent (it does not: its DIAL_REQ was sent, only the
// answer is missing, so nothing retires it). Times are figures, not
// assertions.
func TestFrozenAgent(t *testing.T) {
	for _, tc := range []struct {
		name    string
		version *proxyversion.Version
		extra   []string
		want    string // what a dial given to the frozen agent ends with
	}{
		{"rendered 6s", proxyversion.V036, nil, "code 504: 504 Gateway Timeout"},
		{"upstream 0s", proxyversion.V036, []string{"--backend-dial-timeout=0s"}, "before the timeout"},
		// v0.28 has no bound: in http-connect mode its server accepts the
		// CONNECT at once and the dial waits, unanswered, until the caller
		// gives up (v0.28 renders grpc by default; http-connect is kept here
		// for the bundles that set it).
		{"v0.28 without a bound", proxyversion.V028, nil, "no byte came back from the target before the deadline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tunneltest.NewWith(t, tunneltest.Options{Overlay: "ipv4", Version: tc.version, Mode: proxyversion.ModeHTTPConnect})
			startTarget(t, h)
			h.StartServer(t, tc.extra...)
			h.StartAgent(t)
			frozen := h.StartAgent(t, "--health-server-port=2042", "--admin-server-port=8096")
			waitAgents(t, h, 2)
			if err := frozen.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = frozen.Signal(syscall.SIGCONT) })
			for round := 1; round <= 2; round++ {
				ok, failed := dialBatch(h, 16)
				t.Logf("figure: %s, round %d of 16 dials: %d through the live agent (slowest %s), %d failed after %s: %s",
					tc.name, round, len(ok), slowest(ok), len(failed), spread(failed), firstError(failed))
				if len(failed) == 0 {
					t.Errorf("round %d: no dial went to the frozen agent in 16; the server picks agents at random", round)
				}
				for _, f := range failed {
					if !strings.Contains(f.Error+" "+f.ProxyBody, tc.want) {
						t.Errorf("round %d: a dial to the frozen agent ended with %q %q, want %q", round, f.Error, f.ProxyBody, tc.want)
					}
				}
			}
		})
	}
}

// dialBatch dials the target n times at once and splits the results.
func dialBatch(h *tunneltest.Host, n int) (ok, failed []*egressprobe.Result) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	addr := net.JoinHostPort(tunneltest.TargetIP, fmt.Sprint(targetPort))
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := egressprobe.Probe(context.Background(), egressprobe.Options{Root: h.Root, Target: addr, Timeout: callerTimeout})
			if err != nil {
				res = &egressprobe.Result{Error: err.Error()}
			}
			mu.Lock()
			defer mu.Unlock()
			if res.OK {
				ok = append(ok, res)
			} else {
				failed = append(failed, res)
			}
		}()
	}
	wg.Wait()
	return ok, failed
}

func waitAgents(t *testing.T, h *tunneltest.Host, n int) {
	t.Helper()
	err := tunneltest.Eventually(time.Minute, func() error {
		if got := hoststatus.Run(context.Background(), hoststatus.Options{Root: h.Root, Dial: h.DialBoot}).Agents; got != n {
			return fmt.Errorf("%d of %d agents connected", got, n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func slowest(rs []*egressprobe.Result) time.Duration {
	var d time.Duration
	for _, r := range rs {
		d = max(d, r.Took)
	}
	return d.Round(time.Millisecond)
}

// spread is the shortest and longest time of the results.
func spread(rs []*egressprobe.Result) string {
	if len(rs) == 0 {
		return "-"
	}
	ds := make([]time.Duration, len(rs))
	for i, r := range rs {
		ds[i] = r.Took.Round(10 * time.Millisecond)
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return fmt.Sprintf("%s to %s", ds[0], ds[len(ds)-1])
}

func firstError(rs []*egressprobe.Result) string {
	if len(rs) == 0 {
		return "-"
	}
	return strings.TrimSpace(rs[0].Error + " " + rs[0].ProxyBody)
}
