package usage

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
)

// capturedTargets are the registrations of the e2e run that produced
// testdata/*-metrics.txt (testdata/README.md).
var capturedTargets = []webhookprobe.Target{
	{Kind: "ValidatingWebhookConfiguration", Name: "e2e-deny-labelled", Webhook: "deny.e2e.konnectivity.io", Service: "e2e-webhook/e2e-webhook:443"},
	{Kind: "ValidatingWebhookConfiguration", Name: "e2e-usage", Webhook: "deny.usage.e2e.konnectivity.io", Service: "e2e-webhook/e2e-webhook:443"},
	{Kind: "ValidatingWebhookConfiguration", Name: "e2e-usage", Webhook: "sentinel-v.usage.e2e.konnectivity.io", Service: "e2e-webhook/e2e-webhook:443"},
	{Kind: "MutatingWebhookConfiguration", Name: "e2e-usage", Webhook: "allow.usage.e2e.konnectivity.io", Service: "e2e-webhook/e2e-webhook:443"},
	{Kind: "MutatingWebhookConfiguration", Name: "e2e-usage", Webhook: "sentinel-m.usage.e2e.konnectivity.io", Service: "e2e-webhook/e2e-webhook:443"},
	{Kind: "ValidatingWebhookConfiguration", Name: "e2e-down", Webhook: "down.e2e.konnectivity.io", Service: "e2e-webhook/e2e-down:443"},
	{Kind: "APIService", Name: "v1.usage.e2e.konnectivity.io", Service: "e2e-webhook/e2e-webhook:443"},
	{Kind: "APIService", Name: "v1.down.e2e.konnectivity.io", Service: "e2e-webhook/e2e-down:443"},
}

func capturedInputs(t *testing.T) inputs {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return inputs{
		KubeAPIServer:        Source{Read: true, From: "https://192.0.2.1:6443/metrics"},
		ProxyServer:          Source{Read: true, From: "http://127.0.0.1:8095/metrics"},
		Registrations:        Source{Read: true, From: "https://192.0.2.1:6443"},
		KubeAPIServerMetrics: read("kube-apiserver-metrics.txt"),
		ProxyServerMetrics:   read("proxy-server-metrics.txt"),
		Targets:              capturedTargets,
	}
}

// TestWebhooksFromCapturedMetrics: the counts are those of the capturing
// run, read off testdata/kube-apiserver-metrics.txt by hand: 5 calls the
// mutating webhook allowed, 3 the validating one refused, and 18 calls to
// the first webhook before the tunnel was up (503, failing closed) plus
// the one that got through.
func TestWebhooksFromCapturedMetrics(t *testing.T) {
	rep := build(capturedInputs(t))
	got := map[webhookKey]Webhook{}
	for _, w := range rep.Webhooks {
		got[webhookKey{w.Type, w.Name}] = w
	}
	tests := []struct {
		name, typ                       string
		calls, allowed, refused, failed int
		route                           string
	}{
		{"allow.usage.e2e.konnectivity.io", "mutating", 5, 5, 0, 0, RouteTunnel},
		{"deny.usage.e2e.konnectivity.io", "validating", 3, 0, 3, 0, RouteTunnel},
		{"deny.e2e.konnectivity.io", "validating", 19, 1, 0, 18, RouteTunnel},
		{"sentinel-m.usage.e2e.konnectivity.io", "mutating", 1, 1, 0, 0, RouteTunnel},
		{"sentinel-v.usage.e2e.konnectivity.io", "validating", 1, 1, 0, 0, RouteTunnel},
		{"down.e2e.konnectivity.io", "validating", 0, 0, 0, 0, RouteTunnel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, ok := got[webhookKey{tt.typ, tt.name}]
			if !ok {
				t.Fatalf("no %s webhook %s in %+v", tt.typ, tt.name, rep.Webhooks)
			}
			if w.Calls != tt.calls || w.Allowed != tt.allowed || w.Refused != tt.refused || w.Failed != tt.failed || w.Route != tt.route {
				t.Errorf("calls/allowed/refused/failed/route = %d/%d/%d/%d/%s, want %d/%d/%d/%d/%s",
					w.Calls, w.Allowed, w.Refused, w.Failed, w.Route, tt.calls, tt.allowed, tt.refused, tt.failed, tt.route)
			}
		})
	}
	if len(rep.Webhooks) != len(tests) {
		t.Errorf("%d webhooks reported, want %d", len(rep.Webhooks), len(tests))
	}
	// allow: sum 0.03094787 over 5 calls; buckets le=0.005: 2, le=0.025: 5.
	want := Latency{MeanSeconds: 0.00619, P50Seconds: 0.008333, P99Seconds: 0.024667}
	if l := got[webhookKey{"mutating", "allow.usage.e2e.konnectivity.io"}].Latency; l != want {
		t.Errorf("allow latency %+v, want %+v", l, want)
	}
}

// TestDialsFromCapturedMetrics: the kube-apiserver's egress dialer and the
// server's dials of the same run.
func TestDialsFromCapturedMetrics(t *testing.T) {
	rep := build(capturedInputs(t))
	if len(rep.EgressDials) != 1 {
		t.Fatalf("egress dials %+v, want one protocol/transport", rep.EgressDials)
	}
	e := rep.EgressDials[0]
	if e.Protocol != "http_connect" || e.Transport != "uds" || e.Started != 77 || e.Succeeded != 8 || e.Failed != 69 || e.FailedByStage["proxy"] != 69 {
		t.Errorf("egress dials %+v, want http_connect/uds 77 started, 8 succeeded, 69 failed at proxy", e)
	}
	s := rep.ServerDials
	if s == nil || s.Requested != 64 || s.Succeeded != 8 || s.Failed != 56 || s.FailedByReason["error_response"] != 56 {
		t.Errorf("server dials %+v, want 64 requested, 8 succeeded, 56 failed (error_response)", s)
	}
	avail := map[string]*bool{}
	for _, a := range rep.APIServices {
		avail[a.Name] = a.Available
	}
	if a := avail["v1.usage.e2e.konnectivity.io"]; a == nil || !*a {
		t.Errorf("v1.usage.e2e.konnectivity.io available %v, want true", a)
	}
	if a := avail["v1.down.e2e.konnectivity.io"]; a == nil || *a {
		t.Errorf("v1.down.e2e.konnectivity.io available %v, want false", a)
	}
}

// TestGolden pins the JSON and the table for the captured metrics.
func TestGolden(t *testing.T) {
	rep := build(capturedInputs(t))
	var js, table bytes.Buffer
	if err := output.Write(&js, output.JSON, rep); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteText(&table); err != nil {
		t.Fatal(err)
	}
	goldenfile.Assert(t, filepath.Join("testdata", "want", "usage.json"), js.Bytes())
	goldenfile.Assert(t, filepath.Join("testdata", "want", "usage.txt"), table.Bytes())
}

// TestNonFiniteFiguresAreLeftOut: a counter that is +Inf, NaN or negative
// is named as unreadable and its family adds nothing to the report; the
// JSON stays encodable (a non-finite float would fail encoding/json).
func TestNonFiniteFiguresAreLeftOut(t *testing.T) {
	for _, bad := range []string{"+Inf", "NaN", "-3"} {
		t.Run(bad, func(t *testing.T) {
			server := "# TYPE konnectivity_network_proxy_server_dial_failure_count counter\n" +
				`konnectivity_network_proxy_server_dial_failure_count{reason="no_agent"} ` + bad + "\n" +
				"# TYPE konnectivity_network_proxy_server_stream_packets_total counter\n" +
				`konnectivity_network_proxy_server_stream_packets_total{segment="to_agent",packet_type="DIAL_REQ"} 4` + "\n"
			rep := build(inputs{ProxyServer: Source{Read: true, From: "test"}, ProxyServerMetrics: server})
			if len(rep.Unreadable) != 1 || !strings.Contains(rep.Unreadable[0], "dial_failure_count") {
				t.Fatalf("unreadable = %q, want the dial failure count named", rep.Unreadable)
			}
			if d := rep.ServerDials; d == nil || d.Failed != 0 || d.Requested != 4 {
				t.Errorf("server dials %+v: want the readable 4 requests and nothing from the unreadable family", d)
			}
			var js, text strings.Builder
			if err := output.Write(&js, output.JSON, rep); err != nil {
				t.Fatalf("JSON: %v", err)
			}
			if err := rep.WriteText(&text); err != nil || !strings.Contains(text.String(), "unreadable figure, left out") {
				t.Errorf("table (%v) does not name the unreadable figure:\n%s", err, text.String())
			}
		})
	}
}
