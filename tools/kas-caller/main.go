// Command kas-caller is a release's own webhook caller: the code a
// kube-apiserver of that release runs to call a Service-referenced admission
// webhook (k8s.io/apiserver's webhook ClientManager, its egress-selector
// dialer for the cluster network and the konnectivity-client under it),
// built from one go.mod per release pair (tools/kas-caller/k8s-<minor>.mod). The
// e2e suite runs it where building the whole kube-apiserver of the pair
// would not fit the CI budget (tools/README.md).
//
// Usage: kas-caller -egress FILE -ca FILE -endpoint IP:PORT [-calls N]
// [-parallel P] [-timeout D] [-interval D] [-linger D]
//
// It makes N AdmissionReview calls, P at a time, each bounded by D as the
// webhook's timeoutSeconds bounds it, and prints one JSON line: the
// k8s.io/apiserver and konnectivity-client versions it was built with, how
// many calls succeeded, and how the others failed. -interval paces each of
// the P callers, so a run can hold its kept-alive connections (and in grpc
// mode their tunnel streams) open across a fault, as a kube-apiserver does.
// -linger keeps the process alive after it printed, as a kube-apiserver
// lives on after its calls: net/http lets a dial outlive the request that
// started it, so a grpc dial nobody answers is cancelled (DIAL_CLS) only by
// the konnectivity-client's own 30 s backstop, which an exited caller never
// reaches.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"runtime/debug"
	"sort"
	"sync"
	"time"
)

// result is what one run prints.
type result struct {
	APIServer string         `json:"apiserver"`
	Client    string         `json:"client"`
	Calls     int            `json:"calls"`
	OK        int            `json:"ok"`
	Failed    map[string]int `json:"failed,omitempty"`
	P50MS     float64        `json:"p50_ms"`
	MaxMS     float64        `json:"max_ms"`
}

func main() {
	egress := flag.String("egress", "", "the kube-apiserver's --egress-selector-config-file")
	caFile := flag.String("ca", "", "the webhook's CA bundle (PEM)")
	endpoint := flag.String("endpoint", "", "IP:PORT the webhook Service resolves to (aggregator routing)")
	calls := flag.Int("calls", 1, "how many calls")
	parallel := flag.Int("parallel", 1, "how many at a time")
	timeout := flag.Duration("timeout", 5*time.Second, "each call's bound (the webhook's timeoutSeconds)")
	interval := flag.Duration("interval", 0, "each caller's pause between its calls")
	linger := flag.Duration("linger", 0, "how long to live on after printing the result")
	flag.Parse()
	if *egress == "" || *caFile == "" || *endpoint == "" || *calls < 1 || *parallel < 1 {
		fmt.Fprintln(os.Stderr, "kas-caller: -egress, -ca and -endpoint are required; -calls and -parallel must be at least 1")
		os.Exit(2)
	}
	ca, err := os.ReadFile(*caFile)
	if err != nil {
		fail("read -ca: %v", err)
	}
	hook, err := newHook(*egress, ca, &url.URL{Scheme: "https", Host: *endpoint})
	if err != nil {
		fail("%v", err)
	}
	r := run(hook, *calls, *parallel, *timeout, *interval)
	r.APIServer, r.Client = versions()
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fail("write the result: %v", err)
	}
	time.Sleep(*linger)
}

// run makes the calls and counts their outcomes.
func run(hook *hook, calls, parallel int, timeout, interval time.Duration) result {
	r := result{Calls: calls, Failed: map[string]int{}}
	var mu sync.Mutex
	var took []time.Duration
	work := make(chan struct{})
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				start := time.Now()
				err := hook.call(ctx, timeout)
				d := time.Since(start)
				cancel()
				mu.Lock()
				took = append(took, d)
				if err != nil {
					r.Failed[err.Error()]++
				} else {
					r.OK++
				}
				mu.Unlock()
				time.Sleep(interval)
			}
		}()
	}
	for range calls {
		work <- struct{}{}
	}
	close(work)
	wg.Wait()
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	r.P50MS = ms(took[len(took)/2])
	r.MaxMS = ms(took[len(took)-1])
	return r
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// versions reads the pinned k8s.io/apiserver and konnectivity-client off
// the binary's own build information, so the figures name what ran.
func versions() (apiserver, client string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown", "unknown"
	}
	for _, m := range bi.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		switch m.Path {
		case "k8s.io/apiserver":
			apiserver = m.Version
		case "sigs.k8s.io/apiserver-network-proxy/konnectivity-client":
			client = m.Version
		}
	}
	return apiserver, client
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "kas-caller: "+format+"\n", args...)
	os.Exit(1)
}
