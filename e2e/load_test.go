//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
)

// Bounds of the readiness waits. On a loaded 2-core machine (CI, or other
// suites running alongside) etcd and kube-apiserver took well over a minute
// to get ready, so these are minutes on purpose. Every wait polls and
// returns as soon as its condition holds; no test asserts how long it took.
const (
	startWait  = 5 * time.Minute // a process getting ready: etcd, kube-apiserver, proxy-server's socket
	tunnelWait = 2 * time.Minute // a first call through the tunnel once both ends run
)

// etcdLoadFlags give a starved single-member etcd room: its request (and
// member publish) timeout is 5s plus two election timeouts, 7s with the
// default 1s election timeout, which a loaded machine exceeded
// (`publish-timeout` in its log). 5s election timeouts make it 15s.
var etcdLoadFlags = []string{"--heartbeat-interval=500", "--election-timeout=5000"}

// waitEtcd polls etcd's /health from inside ns until it reports healthy, so
// a slow etcd fails here, named, rather than as a kube-apiserver timeout.
func waitEtcd(t *testing.T, ns string, p *proctest.Proc) {
	t.Helper()
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: nsDialer(ns), DisableKeepAlives: true}}
	took, err := eventually(startWait, 250*time.Millisecond, func() error {
		if !p.Running() {
			return fmt.Errorf("etcd exited: %v", p.Err())
		}
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://127.0.0.1:2379/health", nil)
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"health":"true"`) {
			return fmt.Errorf("HTTP %d %s", resp.StatusCode, strings.TrimSpace(string(body)))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("etcd not healthy: %v\n%s", err, p.Tail(20))
	}
	t.Logf("etcd healthy %v after start", took.Round(time.Millisecond))
}
