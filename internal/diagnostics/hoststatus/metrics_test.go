package hoststatus

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// v028Page is what a v0.28-era proxy-server with one agent serves: agent
// streams and the single ready_backend_connections gauge, no ready_backends.
const v028Page = `# TYPE konnectivity_network_proxy_server_grpc_connections gauge
konnectivity_network_proxy_server_grpc_connections{service_method="Connect"} 1
# TYPE konnectivity_network_proxy_server_ready_backend_connections gauge
konnectivity_network_proxy_server_ready_backend_connections 1
# TYPE konnectivity_network_proxy_server_pending_backend_dials gauge
konnectivity_network_proxy_server_pending_backend_dials 3
`

// v036Page adds readiness per strategy.
const v036Page = v028Page + `# TYPE konnectivity_network_proxy_server_ready_backends gauge
konnectivity_network_proxy_server_ready_backends{proxy_strategy="default"} 1
konnectivity_network_proxy_server_ready_backends{proxy_strategy="destHost"} 0
`

func TestParseMetricsPerVersion(t *testing.T) {
	cases := []struct {
		name        string
		body        string
		target      *proxyversion.Version
		version     *proxyversion.Version
		streams     int
		perStrategy bool
		pending     int
		unreadable  string
	}{
		{"v0.28 page, v0.28 target", v028Page, proxyversion.V028, proxyversion.V028, 1, false, 3, ""},
		{"v0.36 page, v0.36 target", v036Page, proxyversion.V036, proxyversion.V036, 1, true, 3, ""},
		{"v0.28 page, no target: read as v0.28", v028Page, nil, proxyversion.V028, 1, false, 3, ""},
		{"v0.36 page, no target: read as v0.36", v036Page, nil, proxyversion.V036, 1, true, 3, ""},
		{"v0.28 page read for a v0.36 target: no per-strategy figure to invent", v028Page, proxyversion.V036, proxyversion.V036, 1, false, 3, ""},
		{"+Inf streams", strings.Replace(v028Page, `"Connect"} 1`, `"Connect"} +Inf`, 1), proxyversion.V028, proxyversion.V028, -1, false, -1, "+Inf"},
		{"NaN pending", strings.Replace(v028Page, "dials 3", "dials NaN", 1), proxyversion.V028, proxyversion.V028, -1, false, -1, "NaN"},
		{"negative streams", strings.Replace(v028Page, `"Connect"} 1`, `"Connect"} -2`, 1), proxyversion.V028, proxyversion.V028, -1, false, -1, "-2"},
		{"overflowing backends", strings.Replace(v036Page, `"default"} 1`, `"default"} 1e300`, 1), proxyversion.V036, proxyversion.V036, -1, false, -1, "1e+300"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parseMetrics(tc.body, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(m.unreadable, tc.unreadable) || (tc.unreadable == "") != (m.unreadable == "") {
				t.Fatalf("unreadable = %q, want one naming %q", m.unreadable, tc.unreadable)
			}
			if tc.unreadable != "" {
				if !strings.Contains(m.unreadable, "konnectivity_network_proxy_server_") {
					t.Errorf("the unreadable figure does not name its metric: %q", m.unreadable)
				}
				return
			}
			if m.version != tc.version || m.streams != tc.streams || m.perStrategy() != tc.perStrategy || m.pending != tc.pending {
				t.Errorf("got version %s streams %d perStrategy %v pending %d; want %s %d %v %d",
					m.version, m.streams, m.perStrategy(), m.pending, tc.version, tc.streams, tc.perStrategy, tc.pending)
			}
		})
	}
}
