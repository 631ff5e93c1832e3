package result

import (
	"bytes"
	"encoding/json"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

// TestFindingsJSONKeepsItsBytes: check --output json writes what its own
// encoder wrote before the shared one took over, <, > and & escaped as
// \u003c, \u003e and \u0026 included, so a script comparing bytes sees no
// change.
func TestFindingsJSONKeepsItsBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		rs   framework.Results
		want string // a piece the output must hold
	}{
		{"none", nil, `"findings": []`},
		{"html characters", framework.Results{New(framework.Error, "agent-server-host", "DaemonSet ns/a<b>&c", "spec.args[0]", "--proxy-server-host=<x>&y is neither an IP address nor a DNS name", "use a & b")},
			`"message": "--proxy-server-host=\u003cx\u003e\u0026y is neither an IP address nor a DNS name"`},
		{"warning and info", framework.Results{New(framework.Warning, "r", "Pod a/b", "", "plain", ""), New(framework.Info, "s", "Pod a/b", "", "note", "")}, `"info": 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before bytes.Buffer
			enc := json.NewEncoder(&before)
			enc.SetIndent("", "  ")
			if err := enc.Encode(NewReport(tc.rs)); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := output.Write(&got, output.JSON, Findings(tc.rs)); err != nil {
				t.Fatal(err)
			}
			if got.String() != before.String() {
				t.Errorf("check's JSON changed:\n%s\nwant:\n%s", got.String(), before.String())
			}
			if !bytes.Contains(got.Bytes(), []byte(tc.want)) {
				t.Errorf("check's JSON lacks %s:\n%s", tc.want, got.String())
			}
		})
	}
}
