//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestReleaseCaller runs the tunnel cases of each release pair the table
// proves with its release caller (internal/proxyversion.Pairs, ReleaseCaller)
// whose family is the proxy under test, in both modes: the rendered server
// and two agents, the webhook reachable only through the tunnel, and in
// place of the kube-apiserver the pair's own webhook client (its
// k8s.io/apiserver and konnectivity-client, tools/kas-caller). make e2e runs
// it on each family's pass, so 1.27 meets v0.28 and 1.36 meets v0.36.
func TestReleaseCaller(t *testing.T) {
	var pairs []proxyversion.Pair
	for _, p := range proxyversion.Pairs {
		if p.Proof == proxyversion.ReleaseCaller && p.Proxy() == proxyVersion {
			pairs = append(pairs, p)
		}
	}
	if len(pairs) == 0 {
		t.Skipf("no pair of proxy %s is proven by its release caller (internal/proxyversion.Pairs)", proxyVersion)
	}
	for _, p := range pairs {
		for _, mode := range []string{bundle.ModeHTTPConnect, bundle.ModeGRPC} {
			t.Run(p.Kubernetes+"-"+mode, func(t *testing.T) { runCaller(t, p, mode) })
		}
	}
}

func runCaller(t *testing.T, p proxyversion.Pair, mode string) {
	c := newCallerCase(t, p, mode)
	t.Run("webhook fails before the server runs", c.failsBeforeServer)
	c.startTunnel(t)
	t.Run("calls through the tunnel", c.throughTunnel)
	t.Run("agent frozen", c.agentFrozen)
	t.Run("agent killed", c.agentKilled)
	t.Run("server killed and restarted", c.serverRestart)
	t.Run("server SIGTERM", c.serverSIGTERM)
}

// callerCase is one pair in one mode: the bundle rendered and mapped on a
// bootstrap host with two nodes, the webhook in the pod network, no
// kube-apiserver (the caller is its webhook client).
type callerCase struct {
	owner  *testing.T // the test whose end stops the agents
	pair   proxyversion.Pair
	mode   string
	name   string // the figures' case
	bin    string
	st     *scaleTopology
	h      *bootstrapHost
	wh     *webhook
	ca     string // the webhook's CA bundle, as the webhook configuration carries it
	boot   *http.Client
	admin  string
	agents [2]*proctest.Proc
}

func newCallerCase(t *testing.T, p proxyversion.Pair, mode string) *callerCase {
	t.Helper()
	c := &callerCase{owner: t, pair: p, mode: mode, name: fmt.Sprintf("caller/%s/%s", p, mode), bin: tooltest.Bin(t, p.Tool())}
	c.st = newScaleTopology(t, 2)
	root := shortRoot(t)
	renderInto(t, root, mode, c.st.fam)
	c.h = mapBundle(t, c.st.topology, root)
	c.wh = startWebhook(t, c.st.pod, c.st.fam.webhookIP)
	writeFiles(t, c.h.dir, map[string][]byte{"webhook-ca.pem": c.wh.caPEM})
	c.ca = filepath.Join(c.h.dir, "webhook-ca.pem")
	c.boot, c.admin = nsHTTP(c.st.boot), flagValue(t, c.h.server.argv, "--admin-port")
	figures.add(c.name, "machine", machine())
	return c
}

// callerResult is what kas-caller prints (tools/kas-caller/main.go).
type callerResult struct {
	APIServer string         `json:"apiserver"`
	Client    string         `json:"client"`
	Calls     int            `json:"calls"`
	OK        int            `json:"ok"`
	Failed    map[string]int `json:"failed"`
	P50MS     float64        `json:"p50_ms"`
	MaxMS     float64        `json:"max_ms"`
}

func (r callerResult) String() string {
	return fmt.Sprintf("%d of %d ok, p50 %.1f ms, max %.1f ms", r.OK, r.Calls, r.P50MS, r.MaxMS)
}

// caller is the command line of one kas-caller run in the bootstrap
// namespace, where the kube-apiserver runs.
func (c *callerCase) caller(ctx context.Context, calls, parallel int, timeout time.Duration) *exec.Cmd {
	return exec.CommandContext(ctx, "ip", "netns", "exec", c.st.boot, c.bin, "-egress", c.h.kasEgress, "-ca", c.ca,
		"-endpoint", net.JoinHostPort(c.st.fam.webhookIP, fmt.Sprint(webhookPort)),
		"-calls", fmt.Sprint(calls), "-parallel", fmt.Sprint(parallel), "-timeout", timeout.String())
}

// call runs the caller and reads its result, which must name the pair's
// own k8s.io/apiserver and konnectivity-client.
func (c *callerCase) call(t *testing.T, calls, parallel int, timeout time.Duration) callerResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(calls)*timeout+time.Minute)
	defer cancel()
	out, err := c.caller(ctx, calls, parallel, timeout).Output()
	return c.read(t, out, err)
}

func (c *callerCase) read(t *testing.T, out []byte, err error) callerResult {
	t.Helper()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		t.Fatalf("%s (pair %s): %v\n%s", c.pair.Tool(), c.pair, err, ee.Stderr)
	} else if err != nil {
		t.Fatalf("%s (pair %s): %v", c.pair.Tool(), c.pair, err)
	}
	var r callerResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s printed %q: %v", c.pair.Tool(), out, err)
	}
	if r.APIServer != c.pair.APIServer || r.Client != c.pair.Client {
		t.Fatalf("%s was built with k8s.io/apiserver %s and konnectivity-client %s; pair %s pins %s and %s",
			c.pair.Tool(), r.APIServer, r.Client, c.pair, c.pair.APIServer, c.pair.Client)
	}
	return r
}

// failures lists a result's failures with their counts, sorted, for the
// figures and messages.
func (r callerResult) failures() string {
	var parts []string
	for msg, n := range r.Failed {
		parts = append(parts, fmt.Sprintf("%d× %s", n, msg))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}
