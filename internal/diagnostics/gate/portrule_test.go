package gate_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gate"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// fakeServer renders a root, makes the server's socket where the kube-apiserver
// looks for it, and answers the server's health and metrics ports with
// agents connected, as proxy-server does; agents < 0 is a metrics page
// without the agent count, as proxy v0.28 serves before any agent
// connected. It returns the status options that read them.
func fakeServer(t *testing.T, agents int) hoststatus.Options {
	t.Helper()
	root := shortroot.Dir(t, "kbg")
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23"}); err != nil {
		t.Fatal(err)
	}
	rr, err := renderedroot.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	socket, ok := rr.ServerHostPath(rr.Bundle.Server.Flags.Value("uds-name"))
	if !ok {
		t.Fatal("the rendered server's socket is on no hostPath")
	}
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if err := os.Chmod(socket, 0o770); err != nil {
		t.Fatal(err)
	}
	metrics := fmt.Sprintf("# TYPE konnectivity_network_proxy_server_grpc_connections gauge\nkonnectivity_network_proxy_server_grpc_connections{service_method=\"Connect\"} %d\n", agents)
	if agents < 0 {
		metrics = "# TYPE go_goroutines gauge\ngo_goroutines 12\n"
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/healthz":
			fmt.Fprint(w, "ok")
		case "/readyz":
			http.Error(w, "no connection to any proxy agent", http.StatusInternalServerError)
		case "/metrics":
			fmt.Fprint(w, metrics)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	// Every port status reads is the fake server's.
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "tcp", srv.Listener.Addr().String())
	}
	return hoststatus.Options{Root: root, Dial: dial}
}

// TestPortRuleOnce: the agent port's rule is given once in what wait
// prints for too few agents, with none connected, no count read, or some
// connected, and once in what status prints when it says none is; it is
// the rule `ports` prints for the rendered bundle.
// The status runs are real ones, against a fake server's pages.
func TestPortRuleOnce(t *testing.T) {
	for _, tc := range []struct {
		name        string
		agents, min int
		cause       gate.Cause
		statusRules int // how often status's own text gives the rule
	}{
		{"none connected", 0, 1, gate.NoAgentConnected, 1},
		{"no agent count", -1, 1, gate.NoAgentConnected, 0},
		{"one of two", 1, 2, gate.TooFewAgents, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := fakeServer(t, tc.agents)
			log := filepath.Join(t.TempDir(), "server.log")
			if err := os.WriteFile(log, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			v := gate.Wait(context.Background(), gate.Options{Status: opts, MinAgents: tc.min, Timeout: 100 * time.Millisecond, ServerLog: log})
			var text strings.Builder
			if err := v.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			const rule = "the rule from `konnectivity-bundle ports`: allow tcp 8091 from every node"
			if v.Cause != tc.cause || strings.Count(text.String(), "konnectivity-bundle ports") != 1 || strings.Count(text.String(), rule) != 1 {
				t.Errorf("want %s with the agent port's rule once (%q); wait printed:\n%s", tc.cause, rule, text.String())
			}
			var status strings.Builder
			if err := v.Status.WriteText(&status); err != nil {
				t.Fatal(err)
			}
			if strings.Count(status.String(), "konnectivity-bundle ports") != tc.statusRules {
				t.Errorf("status should give the rule %d time(s); it printed:\n%s", tc.statusRules, status.String())
			}
		})
	}
}
