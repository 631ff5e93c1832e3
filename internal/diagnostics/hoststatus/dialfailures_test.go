package hoststatus

import (
	"maps"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestParseDialFigures: the server's pending dials and dial failures by
// reason, which the gate compares across a test dial. Each family appears
// with its first value, so a page without it is none yet; an unreadable
// one is not read (-1, nil).
func TestParseDialFigures(t *testing.T) {
	const failures = `# TYPE konnectivity_network_proxy_server_dial_failure_count counter
konnectivity_network_proxy_server_dial_failure_count{reason="error_response"} 2
konnectivity_network_proxy_server_dial_failure_count{reason="backend_dial_timeout"} 1
`
	cases := []struct {
		name    string
		body    string
		want    map[string]int
		pending int
	}{
		{"counted", v036Page + failures, map[string]int{"error_response": 2, "backend_dial_timeout": 1}, 3},
		{"none failed yet", v028Page, map[string]int{}, 3},
		{"no dial yet", strings.Replace(v036Page, "konnectivity_network_proxy_server_pending_backend_dials 3\n", "", 1), map[string]int{}, 0},
		{"unreadable", v028Page + "# TYPE konnectivity_network_proxy_server_dial_failure_count counter\nkonnectivity_network_proxy_server_dial_failure_count{reason=\"error_response\"} NaN\n", nil, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := parseMetrics(tc.body, proxyversion.V036)
			if err != nil {
				t.Fatal(err)
			}
			if (m.failures == nil) != (tc.want == nil) || !maps.Equal(m.failures, tc.want) {
				t.Errorf("failures %v; want %v", m.failures, tc.want)
			}
			if m.pending != tc.pending {
				t.Errorf("pending %d; want %d", m.pending, tc.pending)
			}
		})
	}
}
