package usage

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

// TestTableEscapesLabelValues: webhook and APIService names, egress labels,
// failure reasons and stages come from the kube-apiserver's and the
// server's metrics; the table shows them escaped, the JSON stays valid.
func TestTableEscapesLabelValues(t *testing.T) {
	h := hostiletext.One
	r := &Report{
		KubeAPIServer: Source{Read: true, From: "https://kas/metrics" + h},
		ProxyServer:   Source{Error: "unreachable: " + h},
		Registrations: Source{Read: true, From: "https://kas" + h},
		Webhooks:      []Webhook{{Name: h, Type: h, Route: h, Calls: 1, Codes: map[string]int{h: 1}}},
		APIServices:   []APIService{{Name: h, Service: h}},
		EgressDials:   []EgressDials{{Protocol: h, Transport: h, Started: 1, Failed: 1, FailedByStage: map[string]int{h: 1}}},
		ServerDials:   &ServerDials{Requested: 1, Failed: 1, FailedByReason: map[string]int{h: 1}},
	}
	var text, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	hostiletext.AssertInert(t, "usage table", text.String())
	if err := output.Write(&js, output.JSON, r); err != nil || !json.Valid(js.Bytes()) {
		t.Errorf("usage.json (%v) is not valid:\n%s", err, js.String())
	}
}
