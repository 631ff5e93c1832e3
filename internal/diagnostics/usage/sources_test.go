package usage

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
)

// A fail-open call: failurePolicy Ignore let the request through although
// the webhook could not be called (series as kube-apiserver v1.35 names them).
const failOpenMetrics = `# TYPE apiserver_admission_webhook_request_total counter
apiserver_admission_webhook_request_total{code="500",name="open.example.com",operation="CREATE",rejected="false",type="validating"} 2
apiserver_admission_webhook_request_total{code="200",name="open.example.com",operation="CREATE",rejected="false",type="validating"} 3
# TYPE apiserver_admission_webhook_fail_open_count counter
apiserver_admission_webhook_fail_open_count{name="open.example.com",type="validating"} 2
`

// TestSources: what the report says when a side could not be read, and
// how each webhook's route follows from the registrations.
func TestSources(t *testing.T) {
	open := []webhookprobe.Target{{Kind: "ValidatingWebhookConfiguration", Name: "c", Webhook: "open.example.com", Service: "ns/svc:443"}}
	tests := []struct {
		name      string
		in        inputs
		wantRoute string
		wantCalls int
		wantFail  int
		kasErr    string
	}{
		{"fail open counts as failed, registered by Service",
			inputs{KubeAPIServer: Source{Read: true}, Registrations: Source{Read: true}, KubeAPIServerMetrics: failOpenMetrics, Targets: open},
			RouteTunnel, 5, 2, ""},
		{"called but not registered by Service",
			inputs{KubeAPIServer: Source{Read: true}, Registrations: Source{Read: true}, KubeAPIServerMetrics: failOpenMetrics},
			RouteOther, 5, 2, ""},
		{"registrations not listed",
			inputs{KubeAPIServer: Source{Read: true}, Registrations: Source{Error: "forbidden"}, KubeAPIServerMetrics: failOpenMetrics},
			RouteUnknown, 5, 2, ""},
		{"kube-apiserver not read: registered webhooks with no counts",
			inputs{KubeAPIServer: Source{Error: "no kubeconfig"}, Registrations: Source{Read: true}, Targets: open},
			RouteTunnel, 0, 0, "no kubeconfig"},
		{"metrics that do not parse",
			inputs{KubeAPIServer: Source{Read: true}, Registrations: Source{Read: true}, KubeAPIServerMetrics: "not metrics {", Targets: open},
			RouteTunnel, 0, 0, "parse metrics"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := build(tt.in)
			if len(rep.Webhooks) != 1 {
				t.Fatalf("webhooks %+v, want one", rep.Webhooks)
			}
			w := rep.Webhooks[0]
			if w.Route != tt.wantRoute || w.Calls != tt.wantCalls || w.Failed != tt.wantFail || w.Allowed != tt.wantCalls-tt.wantFail {
				t.Errorf("route %s calls %d failed %d allowed %d, want %s %d %d %d", w.Route, w.Calls, w.Failed, w.Allowed,
					tt.wantRoute, tt.wantCalls, tt.wantFail, tt.wantCalls-tt.wantFail)
			}
			if tt.kasErr != "" && (rep.KubeAPIServer.Read || !strings.Contains(rep.KubeAPIServer.Error, tt.kasErr)) {
				t.Errorf("kube-apiserver source %+v, want unread with %q", rep.KubeAPIServer, tt.kasErr)
			}
			var b strings.Builder
			if err := rep.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if tt.kasErr != "" && !strings.Contains(b.String(), "kube-apiserver metrics: not read: ") {
				t.Errorf("table does not say the kube-apiserver's metrics were not read:\n%s", b.String())
			}
		})
	}
}
