// Package fakekas serves a stand-in kube-apiserver for the tests of the
// commands that read one (internal/intake/kuberead and everything above it): a
// /metrics page of the test's choosing, 404 for every other path (objects
// then count as gone, lists as unreadable) (Serve); a hostile one that
// stalls, drips, streams an endless list or sends one huge object
// (Hostile); one that holds just the objects a test gives it (Objects);
// and a kubeconfig that names any of them (Kubeconfig).
package fakekas

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// NonFiniteMetrics holds a webhook latency histogram whose sum is +Inf,
// the figure that once failed the usage report's encoding.
const NonFiniteMetrics = `# TYPE apiserver_admission_webhook_request_total counter
apiserver_admission_webhook_request_total{code="200",name="w.example.com",operation="CREATE",rejected="false",type="validating"} 1
# TYPE apiserver_admission_webhook_admission_duration_seconds histogram
apiserver_admission_webhook_admission_duration_seconds_bucket{name="w.example.com",operation="CREATE",rejected="false",type="validating",le="+Inf"} 1
apiserver_admission_webhook_admission_duration_seconds_sum{name="w.example.com",operation="CREATE",rejected="false",type="validating"} +Inf
apiserver_admission_webhook_admission_duration_seconds_count{name="w.example.com",operation="CREATE",rejected="false",type="validating"} 1
`

// Serve answers /metrics with code and body over TLS until the test ends,
// and returns the server's URL.
func Serve(tb testing.TB, code int, body string) string {
	tb.Helper()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(code)
		fmt.Fprint(w, body)
	}))
	tb.Cleanup(srv.Close)
	return srv.URL
}

// Kubeconfig writes a kubeconfig naming server at path ("" = a file in a
// fresh temporary directory; missing parent directories are made), without
// verifying its certificate (httptest's is self-signed), and returns the path.
func Kubeconfig(tb testing.TB, path, server string) string {
	tb.Helper()
	if path == "" {
		path = filepath.Join(tb.TempDir(), "kubeconfig")
	}
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: %q, insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`, server)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}
