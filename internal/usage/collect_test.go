package usage

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// kubeconfigFor writes a kubeconfig naming server.
func kubeconfigFor(t *testing.T, server string) string { return fakekas.Kubeconfig(t, "", server) }

// fakeAPIServer answers /metrics with code and body, and every other path
// (the registrations' lists) with 404.
func fakeAPIServer(t *testing.T, code int, body string) string { return fakekas.Serve(t, code, body) }

// closedPort is an address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "https://" + addr
}

// TestCollect: where each side comes from, and what the report says when
// it cannot be read; only an unusable kubeconfig is an error.
func TestCollect(t *testing.T) {
	captured, err := os.ReadFile(filepath.Join("testdata", "kube-apiserver-metrics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	server := &hoststatus.Report{Metrics: failOpenMetrics, MetricsFrom: "http://127.0.0.1:8095/metrics"}
	tests := []struct {
		name       string
		kubeconfig func(t *testing.T) string
		status     *hoststatus.Report
		kasRead    bool
		kasErr     string
		regErr     string
		serverErr  string
	}{
		{"no kubeconfig", func(*testing.T) string { return "" }, server, false, "no --kubeconfig", "no --kubeconfig", ""},
		{"metrics forbidden", func(t *testing.T) string {
			return kubeconfigFor(t, fakeAPIServer(t, http.StatusForbidden, "forbidden"))
		},
			server, false, "HTTP 403 (the kubeconfig's user needs get on the non-resource URL /metrics)", "not listed", ""},
		{"API server unreachable", func(t *testing.T) string { return kubeconfigFor(t, closedPort(t)) },
			nil, false, "unreachable: ", "not listed", "the bootstrap host was not read"},
		{"metrics read, registrations not listed", func(t *testing.T) string { return kubeconfigFor(t, fakeAPIServer(t, http.StatusOK, string(captured))) },
			&hoststatus.Report{MetricsError: "cannot read the server's metrics: connection refused"}, true, "", "list validating webhook configurations", "connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Collect(context.Background(), Options{Kubeconfig: tt.kubeconfig(t), Timeout: 5 * time.Second, Status: tt.status})
			if err != nil {
				t.Fatal(err)
			}
			if rep.KubeAPIServer.Read != tt.kasRead || !strings.Contains(rep.KubeAPIServer.Error, tt.kasErr) {
				t.Errorf("kube-apiserver %+v, want read %v, error with %q", rep.KubeAPIServer, tt.kasRead, tt.kasErr)
			}
			if rep.Registrations.Read || !strings.Contains(rep.Registrations.Error, tt.regErr) {
				t.Errorf("registrations %+v, want unread with %q", rep.Registrations, tt.regErr)
			}
			if rep.ProxyServer.Read != (tt.serverErr == "") || !strings.Contains(rep.ProxyServer.Error, tt.serverErr) {
				t.Errorf("proxy-server %+v, want error with %q", rep.ProxyServer, tt.serverErr)
			}
			for _, w := range rep.Webhooks {
				if w.Route != RouteUnknown {
					t.Errorf("webhook %s route %s with the registrations unlisted, want %s", w.Name, w.Route, RouteUnknown)
				}
			}
			if tt.kasRead && len(rep.Webhooks) == 0 {
				t.Error("metrics read but no webhook reported")
			}
		})
	}
	if _, err := Collect(context.Background(), Options{Kubeconfig: filepath.Join(t.TempDir(), "missing")}); err == nil || !strings.Contains(err.Error(), "--kubeconfig") {
		t.Errorf("missing kubeconfig: %v, want an error naming --kubeconfig", err)
	}
}
