package check

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
)

// TestOutputGolden renders the findings of a bundle with the published
// design's mistakes in both output formats (refresh with -update).
func TestOutputGolden(t *testing.T) {
	in := string(readGood(t))
	for _, e := range [][2]string{
		{"--server-port=0", "--server-port=8091"},
		{"--server-count=1", "--server-count=1\n    - --agent-namespace=openshift-bootstrap-konnectivity"},
		{"apiServerArguments:", "egressSelectorConfiguration: {}\napiServerArguments:"},
		{"--keepalive-time=30s\n        - --probe-interval", "--keepalive-time=5s\n        - --probe-interval"},
	} {
		if !strings.Contains(in, e[0]) {
			t.Fatalf("edit %q does not apply", e[0])
		}
		in = strings.Replace(in, e[0], e[1], 1)
	}
	fs, err := Check([]byte(in), Options{CertFiles: goodCerts(t)})
	if err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	if err := result.Findings(fs).WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := output.Write(&js, output.JSON, result.Findings(fs)); err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/golden/published.txt", text.Bytes())
	golden(t, "testdata/golden/published.json", js.Bytes())

	var back result.Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.Errors != len(fs)-back.Warnings || back.Errors < 5 || len(back.Findings) != len(fs) {
		t.Errorf("report counts %d errors, %d warnings for %d findings", back.Errors, back.Warnings, len(fs))
	}
}

func TestWriteJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := output.Write(&b, output.JSON, result.Findings(nil)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"findings": []`) {
		t.Errorf("no findings must be an empty list, got %s", b.String())
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	goldenfile.Assert(t, path, got)
}
