package webhookprobe

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
)

// TestClassify pins the outcome for the errors the real proxy-server and
// kube-apiserver dialer produce (texts as seen in the e2e suite).
func TestClassify(t *testing.T) {
	cases := []struct {
		res  egressprobe.Result
		want Outcome
	}{
		{egressprobe.Result{OK: true}, Reachable},
		{egressprobe.Result{Error: "proxy error ... code 500", ProxyBody: "currently no tunnels available: No agent available"}, NoAgent},
		{egressprobe.Result{Error: "proxy error ... code 502: 502 Bad Gateway dial tcp 198.51.100.2:9444: connect: connection refused"}, Refused},
		{egressprobe.Result{Error: "dial tcp 10.0.0.1:443: i/o timeout"}, Timeout},
		{egressprobe.Result{Error: "context deadline exceeded"}, Timeout},
		{egressprobe.Result{Error: "dial unix /x.socket: connect: no such file or directory"}, Failed},
	}
	for _, tc := range cases {
		if got := Classify(&tc.res); got != tc.want {
			t.Errorf("Classify(%q %q) = %q, want %q", tc.res.Error, tc.res.ProxyBody, got, tc.want)
		}
	}
}
