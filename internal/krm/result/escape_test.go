package result

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestLinesEscapeBundleValues: check's text output, render's finding lines
// and the error text quote object names and values from the bundle; each
// result stays one inert line. check's JSON stays valid.
func TestLinesEscapeBundleValues(t *testing.T) {
	var rs framework.Results
	for _, h := range hostiletext.Values {
		r := New(framework.Error, "agent-server-host", "DaemonSet ns/"+h, "spec.args[0]", "--proxy-server-host="+h+" is neither an IP address nor a DNS name", "fix "+h)
		r.ResourceRef = &yaml.ResourceIdentifier{TypeMeta: yaml.TypeMeta{Kind: "DaemonSet"}, NameMeta: yaml.NameMeta{Name: h}}
		rs = append(rs, r)
	}
	var text, js bytes.Buffer
	if err := Findings(rs).WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		text.WriteString(Text(r) + "\n")
	}
	text.WriteString(Lines(rs) + "\n")
	hostiletext.AssertInert(t, "check text", text.String())
	if got, want := bytes.Count(text.Bytes(), []byte("\n")), 3*len(rs); got != want {
		t.Errorf("%d lines for %d results written three ways, want %d:\n%s", got, len(rs), want, text.String())
	}
	if err := output.Write(&js, output.JSON, Findings(rs)); err != nil || !json.Valid(js.Bytes()) {
		t.Errorf("check JSON (%v) is not valid:\n%s", err, js.String())
	}
}
