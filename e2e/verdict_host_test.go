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
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/netnstest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
)

// Ports in the pod network of the verdict tests: one whose SYNs the pod
// namespace drops (a target that drops packets), one that listens.
const (
	droppedPort   = 9443
	listeningPort = 9444
)

// verdictHost is the real proxy-server and n real proxy-agents from a
// rendered root on the scale topology (one node namespace per agent), with
// no kube-apiserver: what `wait --target` and `status` read on a bootstrap
// host is the server's socket, health and metrics.
type verdictHost struct {
	st     *scaleTopology
	root   string
	h      *bootstrapHost
	boot   *http.Client
	admin  string
	agents []*proctest.Proc
}

// newVerdictHost renders for mode, starts the server and one agent per
// node and waits until the server counts them all. The pod network has a
// listener on listeningPort and drops every SYN to droppedPort.
func newVerdictHost(t *testing.T, mode string, nodes int) *verdictHost {
	t.Helper()
	st := newScaleTopology(t, nodes)
	v := &verdictHost{st: st, root: shortRoot(t), boot: nsHTTP(st.boot)}
	renderInto(t, v.root, mode, st.fam)
	v.h = mapBundle(t, st.topology, v.root)
	v.admin = flagValue(t, v.h.server.argv, "--admin-port")
	netnstest.DropTCP(t, st.pod, droppedPort)
	tunneltest.ServeAccepts(t, st.pod, net.JoinHostPort(st.fam.webhookIP, fmt.Sprint(listeningPort)))
	v.h.startServer(t)
	for i := range nodes {
		v.startAgent(t, i)
	}
	v.waitAgents(t, nodes)
	return v
}

// startAgent starts (or replaces) the agent of node i.
func (v *verdictHost) startAgent(t *testing.T, i int) {
	t.Helper()
	p := proctest.Start(t, proctest.Spec{NS: v.st.nodes[i], Name: fmt.Sprintf("proxy-agent-%d-%d", i, len(v.agents)), LogDir: v.h.dir, Argv: v.h.agent.argv})
	if i < len(v.agents) {
		v.agents[i] = p
	} else {
		v.agents = append(v.agents, p)
	}
}

// waitAgents waits until the server counts n agents.
func (v *verdictHost) waitAgents(t *testing.T, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), tunnelWait)
	defer cancel()
	if _, err := waitAgents(ctx, v.boot, v.admin, n, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// pending is the server's pending_backend_dials.
func (v *verdictHost) pending(t *testing.T) int {
	t.Helper()
	n, err := serverGauge(v.boot, v.admin, pendingDialsMetric)
	if err != nil {
		t.Fatalf("server metrics: %v", err)
	}
	return n
}

// target is host:port in the pod network.
func (v *verdictHost) target(port int) string {
	return net.JoinHostPort(v.st.fam.webhookIP, fmt.Sprint(port))
}

// wait runs `konnectivity-bundle wait --target` in the bootstrap namespace
// with a short --timeout (one poll: the poll under way runs to its end)
// and returns its verdict and exit code.
func (v *verdictHost) wait(t *testing.T, target, dialTimeout string) (waitResult, int) {
	t.Helper()
	return runCLIJSON[waitResult](t, v.st.boot, "wait", "--root", v.root, "--target", target, "--dial-timeout", dialTimeout, "--timeout", "1s", "-o", "json")
}

// runCLIJSON runs the CLI in namespace ns and decodes its JSON stdout.
func runCLIJSON[T any](t *testing.T, ns string, args ...string) (T, int) {
	t.Helper()
	cmd := exec.Command("ip", append([]string{"netns", "exec", ns, cli(t)}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (exit %d):\n%s%s", args[0], code, stderr.String(), out)
	var res T
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%s -o json printed no JSON: %v", args[0], err)
	}
	return res, code
}
