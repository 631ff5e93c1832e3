package egressprobe_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
)

const targetPort = 8443

// TestProbeAgainstRealServerAndAgent dials a "pod" that only the node can
// reach, through the real server and agent of every proxy version, started
// from a rendered root. v0.28's http-connect server answers 200 before its
// agent dials and closes the connection when there is no agent or the dial
// fails, so the probe learns those from the target's silence (stage
// confirm), as the kube-apiserver does from an EOF in its TLS handshake.
func TestProbeAgainstRealServerAndAgent(t *testing.T) {
	const closed = "the tunnel closed before the target sent a byte"
	// v0.28 writes the agent's dial error into the tunnel as an HTTP 503
	// after its 200; the probe reports it as the dial failure it is.
	for _, mode := range []struct {
		version               *proxyversion.Version
		name, protocol        string
		noAgentStage, noAgent string
		refusedStage, refused string
	}{
		{proxyversion.V036, "http-connect", "HTTPConnect", egressprobe.StageDial, "proxy error", egressprobe.StageDial, "proxy error"},
		{proxyversion.V036, "grpc", "GRPC", egressprobe.StageDial, "No agent available", egressprobe.StageDial, "connection refused"},
		{proxyversion.V028, "http-connect", "HTTPConnect", egressprobe.StageConfirm, closed, egressprobe.StageDial, "connection refused"},
		{proxyversion.V028, "grpc", "GRPC", egressprobe.StageDial, "No agent available", egressprobe.StageDial, "connection refused"},
	} {
		t.Run(mode.version.Name+"/"+mode.name, func(t *testing.T) {
			runProbe(t, mode.version, mode.name, mode.protocol, [2]string{mode.noAgentStage, mode.noAgent}, [2]string{mode.refusedStage, mode.refused})
		})
	}
}

func runProbe(t *testing.T, version *proxyversion.Version, mode, protocol string, noAgent, refused [2]string) {
	h := tunneltest.NewWith(t, tunneltest.Options{Overlay: tooltest.WriteOverlay(t, tooltest.Overlay{Spec: "mode: " + mode}), Version: version})
	target := startTarget(t, h)
	addr := net.JoinHostPort(tunneltest.TargetIP, fmt.Sprint(targetPort))
	probe := func(t *testing.T, tgt string) *egressprobe.Result {
		t.Helper()
		res, err := egressprobe.Probe(context.Background(), egressprobe.Options{Root: h.Root, Target: tgt, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	t.Run("bootstrap namespace has no direct route to the target", func(t *testing.T) {
		if _, err := h.DialBoot(context.Background(), "tcp", addr); err == nil {
			t.Fatal("direct dial from the bootstrap namespace succeeded: the probe would prove nothing")
		}
	})
	t.Run("server down", func(t *testing.T) {
		res := probe(t, addr)
		expectFail(t, res, egressprobe.StageDial, "no such file or directory")
	})
	h.StartServer(t)
	t.Run("no agent", func(t *testing.T) {
		res := probe(t, addr)
		expectFail(t, res, noAgent[0], noAgent[1])
		if protocol == "HTTPConnect" && !version.ConnectBeforeDial && !strings.Contains(res.ProxyBody, "No agent available") {
			t.Errorf("proxy body %q, want the server's reason", res.ProxyBody)
		}
		t.Logf("no agent: %s", res.Error)
	})
	h.StartAgent(t)
	t.Run("healthy", func(t *testing.T) {
		var res *egressprobe.Result
		if err := tunneltest.Eventually(30*time.Second, func() error {
			res = probe(t, "https://"+addr+"/healthz")
			if !res.OK {
				return errors.New(res.Error)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		_ = res.WriteText(&out)
		t.Logf("%s", out.String())
		if res.HTTPStatus != http.StatusOK || res.TLSPeer == "" || res.Took <= 0 || res.Protocol != protocol || res.Socket != h.Socket {
			t.Errorf("result %+v, want HTTP 200 over %s with a TLS peer and a duration", res, h.Socket)
		}
		if got := target.Config.Handler.(*counter).n; got == 0 {
			t.Error("the target saw no request")
		}
		if res := probe(t, addr); !res.OK || res.HTTPStatus != 0 {
			t.Errorf("host:port probe %+v, want a plain successful connect", res)
		}
	})
	t.Run("nothing listening at the target", func(t *testing.T) {
		res := probe(t, net.JoinHostPort(tunneltest.TargetIP, "9"))
		expectFail(t, res, refused[0], refused[1])
		t.Logf("refused: %s", res.Error)
	})
	t.Run("socket missing", func(t *testing.T) {
		if err := os.Remove(h.Socket); err != nil {
			t.Fatal(err)
		}
		expectFail(t, probe(t, addr), egressprobe.StageDial, "no such file or directory")
	})
}

func expectFail(t *testing.T, res *egressprobe.Result, stage, sub string) {
	t.Helper()
	if res.OK || res.Stage != stage || !strings.Contains(res.Error+" "+res.ProxyBody, sub) {
		t.Errorf("result ok=%v stage=%q error=%q, want failure at %s containing %q", res.OK, res.Stage, res.Error, stage, sub)
	}
}

type counter struct{ n int }

func (c *counter) ServeHTTP(w http.ResponseWriter, _ *http.Request) { c.n++; fmt.Fprint(w, "ok") }

// startTarget runs an HTTPS server on TargetIP in the node namespace.
func startTarget(t *testing.T, h *tunneltest.Host) *httptest.Server {
	t.Helper()
	l, err := h.ListenNode(targetPort)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(&counter{})
	srv.Listener.Close()
	srv.Listener = l
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

func TestProbeBadInput(t *testing.T) {
	for _, tc := range []struct{ target, want string }{
		{"nohost", "give host:port"},
		{"ftp://x:21", "give host:port or an http(s) URL"},
		{"[2001:db8::1:443", "give host:port"},
	} {
		if _, err := egressprobe.Probe(context.Background(), egressprobe.Options{Root: t.TempDir(), Target: tc.target}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("target %q: error %v, want %q", tc.target, err, tc.want)
		}
	}
	res, err := egressprobe.Probe(context.Background(), egressprobe.Options{Root: t.TempDir(), Target: "192.0.2.1:443"})
	if err != nil || res.OK || res.Stage != egressprobe.StageConfig || !strings.Contains(res.Error, "render has not written this root") {
		t.Errorf("unrendered root: %+v, %v; want a config failure naming render", res, err)
	}
}
