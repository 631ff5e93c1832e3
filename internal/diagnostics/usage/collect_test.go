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

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// readerFor opens the bounded reader of a kubeconfig naming server.
func readerFor(t *testing.T, server string, timeout time.Duration) *kuberead.Reader {
	t.Helper()
	r, err := kuberead.Open(context.Background(), kuberead.Find(kuberead.Lookup{Flag: fakekas.Kubeconfig(t, "", server), FlagGiven: true}), kuberead.Within(timeout))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

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
// it cannot be read.
func TestCollect(t *testing.T) {
	captured, err := os.ReadFile(filepath.Join("testdata", "kube-apiserver-metrics.txt"))
	if err != nil {
		t.Fatal(err)
	}
	server := &hoststatus.Report{Metrics: failOpenMetrics, MetricsFrom: "http://127.0.0.1:8095/metrics"}
	tests := []struct {
		name      string
		cluster   func(t *testing.T) *kuberead.Reader
		status    *hoststatus.Report
		kasRead   bool
		kasErr    string
		regErr    string
		serverErr string
	}{
		{"no kubeconfig", func(*testing.T) *kuberead.Reader { return nil }, server, false, noCluster, noCluster, ""},
		{"metrics forbidden", func(t *testing.T) *kuberead.Reader {
			return readerFor(t, fakeAPIServer(t, http.StatusForbidden, "forbidden"), 5*time.Second)
		},
			server, false, "HTTP 403 (the kubeconfig's user needs get on the non-resource URL /metrics)", "not listed", ""},
		{"API server unreachable", func(t *testing.T) *kuberead.Reader { return readerFor(t, closedPort(t), 5*time.Second) },
			nil, false, "unreachable: ", "not listed", "the bootstrap host was not read"},
		{"metrics read, registrations not listed", func(t *testing.T) *kuberead.Reader {
			return readerFor(t, fakeAPIServer(t, http.StatusOK, string(captured)), 5*time.Second)
		},
			&hoststatus.Report{MetricsError: "cannot read the server's metrics: connection refused"}, true, "", "list validating webhook configurations", "connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Collect(context.Background(), Options{Cluster: tt.cluster(t), NoCluster: noCluster, Status: tt.status})
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
}

// noCluster stands for the kubeconfig lookup's answer.
const noCluster = `no kubeconfig: --kubeconfig "" given`
