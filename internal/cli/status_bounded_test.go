package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUsageReadsFollowTimeout: status and teardown read the kube-apiserver's
// /metrics within their --timeout, not a limit of their own: against one
// that never answers it, --timeout 500ms ends the read with the reason in
// the report.
// Loose bound: well under the 10 s the read once took whatever --timeout said.
func TestUsageReadsFollowTimeout(t *testing.T) {
	t.Parallel()
	stop := make(chan struct{})
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" { // teardown's reads of its objects: gone
			http.NotFound(w, r)
			return
		}
		select {
		case <-stop:
		case <-time.After(time.Minute):
		}
	}))
	defer srv.Close()
	defer close(stop) // first: Close waits for the handlers
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: %q, insecure-skip-tls-verify: true}}]\n"+
		"users: [{name: u, user: {token: t}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n", srv.URL)
	if err := os.WriteFile(kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"status", "teardown"} {
		root := hostRenderedRoot(t)
		start := time.Now()
		_, out, stderr := runHostCmd(t, cmd, "--root", root, "--kubeconfig", kubeconfig, "--timeout", "500ms")
		took := time.Since(start)
		if !strings.Contains(out, "kube-apiserver metrics: not read: ") || !strings.Contains(out, "no answer within 500ms, the command's --timeout") {
			t.Errorf("%s: the report does not name the timeout:\n%s%s", cmd, out, stderr)
		}
		if took > 5*time.Second {
			t.Errorf("%s --timeout 500ms took %s", cmd, took)
		}
	}
}
