package gate

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

// TestVerdictEscapesTheServerLog: the verdict's detail quotes the server's
// log and what status read; wait's text shows it escaped, its progress
// lines too, and its JSON stays valid.
func TestVerdictEscapesTheServerLog(t *testing.T) {
	for _, h := range hostiletext.Values {
		v := &Verdict{Cause: AgentsDropped, Detail: "agents reach the server but it refuses their TLS handshake (0.log: " + h + ")", Fix: "fix " + h, Waited: time.Second}
		var text, js bytes.Buffer
		if err := v.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		WriteProgress(&text, Progress{Waiting: "agents", Detail: h, Elapsed: time.Second})
		hostiletext.AssertInert(t, "wait text", text.String())
		if err := output.Write(&js, output.JSON, v); err != nil || !json.Valid(js.Bytes()) {
			t.Errorf("wait JSON (%v) is not valid:\n%s", err, js.String())
		}
	}
}
