package usage

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// hangingAPIServer answers /metrics at once when metricsOK, and otherwise
// (and every other path) sends nothing until the test ends.
func hangingAPIServer(t *testing.T, metricsOK bool) string {
	t.Helper()
	stop := make(chan struct{})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if metricsOK && r.URL.Path == "/metrics" {
			fmt.Fprint(w, "# nothing\n")
			return
		}
		select {
		case <-stop:
		case <-time.After(time.Minute):
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // first: Close waits for the handlers
	return srv.URL
}

// TestCollectIsBoundedByTheTimeout: each read from the kube-apiserver (its
// /metrics, then the lists of registrations) ends near the caller's
// timeout with the reason in the report, not at a limit of its own. The
// bound asserted is loose (3x per read) so a loaded machine passes.
func TestCollectIsBoundedByTheTimeout(t *testing.T) {
	const timeout = 500 * time.Millisecond
	for _, tc := range []struct {
		name      string
		metricsOK bool
		reads     int
	}{
		{"metrics hang", false, 1},
		{"lists hang", true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			rep := Collect(context.Background(), Options{Cluster: readerFor(t, hangingAPIServer(t, tc.metricsOK), timeout)})
			took := time.Since(start)
			failed := rep.KubeAPIServer.Error
			if tc.metricsOK {
				failed = rep.Registrations.Error
			}
			if !strings.Contains(failed, "deadline exceeded") && !strings.Contains(failed, "Timeout") {
				t.Errorf("report %+v / %+v, want a timeout named", rep.KubeAPIServer, rep.Registrations)
			}
			if took > time.Duration(3*tc.reads)*timeout {
				t.Errorf("took %s for %d read(s) with a %s timeout", took, tc.reads, timeout)
			}
		})
	}
}

// TestCollectRefusesARedirectToAnotherHost: a kube-apiserver whose
// /metrics redirects elsewhere is reported unread with the reason; the
// other host never sees the request (nor the kubeconfig's token).
func TestCollectRefusesARedirectToAnotherHost(t *testing.T) {
	other := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the redirect to another host was followed: %s (Authorization %q)", r.URL, r.Header.Get("Authorization"))
	}))
	defer other.Close()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/metrics", http.StatusFound)
	}))
	defer srv.Close()
	rep := Collect(context.Background(), Options{Cluster: readerFor(t, srv.URL, 5*time.Second)})
	if rep.KubeAPIServer.Read || !strings.Contains(rep.KubeAPIServer.Error, "refused to follow a redirect from "+srv.URL+"/metrics to another host, "+other.URL+"/metrics") {
		t.Errorf("kube-apiserver %+v, want it unread, the redirect refused naming both hosts", rep.KubeAPIServer)
	}
}
