package hoststatus

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// TestTextEscapesWhatTheServerSaid: a check's detail and hint carry what the
// server answered and what its metrics' labels hold; the text report shows
// them escaped, one check per line, and the JSON report stays valid JSON
// holding the values as they were.
func TestTextEscapesWhatTheServerSaid(t *testing.T) {
	rep := &Report{Root: "/host\x1b[2J", BootstrapIP: "10.0.0.5\n" + hostiletext.Forged}
	for _, h := range hostiletext.Values {
		rep.add(newCheck(CheckAgents, framework.Error, "reason="+h, "hint "+h))
	}
	rep.finish()
	var text, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	hostiletext.AssertInert(t, "status text", text.String())
	if got, want := bytes.Count(text.Bytes(), []byte("\n")), 2+2*len(hostiletext.Values); got != want {
		t.Errorf("status text has %d lines, want %d (a header, a line and a hint per check, the verdict):\n%s", got, want, text.String())
	}
	if err := output.Write(&js, output.JSON, rep); err != nil {
		t.Fatal(err)
	}
	var back struct{ Checks []CheckJSON }
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("status JSON is not valid JSON: %v\n%s", err, js.String())
	}
	if back.Checks[0].Detail != "reason="+hostiletext.Values[0] {
		t.Errorf("JSON changed the detail: %q", back.Checks[0].Detail)
	}
}
