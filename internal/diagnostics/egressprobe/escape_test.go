package egressprobe

import (
	"bytes"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

// TestTextEscapesWhatTheProxySaid: the proxy's answer, the target's
// certificate subject and the error reach probe's text escaped.
func TestTextEscapesWhatTheProxySaid(t *testing.T) {
	for _, h := range hostiletext.Values {
		for _, r := range []*Result{
			{Target: "https://" + h, HTTPStatus: 200, OK: true, TLSPeer: "CN=" + h},
			{Stage: StageConfig, Error: h},
			{Stage: "proxy", Address: h, Error: h, ProxyBody: h},
		} {
			var out bytes.Buffer
			if err := r.WriteText(&out); err != nil {
				t.Fatal(err)
			}
			hostiletext.AssertInert(t, "probe text", out.String())
		}
	}
}
