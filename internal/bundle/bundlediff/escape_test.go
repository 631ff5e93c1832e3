package bundlediff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/manifest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

// TestHostileValuesStayInert: object names, field paths and values from a
// bundle (a pull request's overlay) reach the text and Markdown diff
// escaped, and the JSON diff stays valid JSON.
func TestHostileValuesStayInert(t *testing.T) {
	side := func(value string) []manifest.Object {
		t.Helper()
		var docs bytes.Buffer
		for i, h := range hostiletext.Values {
			// Go's ASCII quoting is a YAML double-quoted scalar, and
			// YAML refuses raw control characters in the stream.
			name, key, val := strconv.QuoteToASCII("cm-"+h), strconv.QuoteToASCII("k"+h), strconv.QuoteToASCII(value+h)
			fmt.Fprintf(&docs, "---\n{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": %s, \"namespace\": \"n%d\"}, \"data\": {%s: %s}}\n", name, i, key, val)
		}
		objs, err := manifest.Parse(docs.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		return objs
	}
	r := Compare("a\x1b[2J.yaml", side("old"), "b\n"+hostiletext.Forged, side("new"))
	if r.Equal() {
		t.Fatal("the two sides compare equal; the test proves nothing")
	}
	for _, f := range Formats {
		for _, colour := range []bool{false, true} {
			var buf bytes.Buffer
			if err := output.Write(&buf, f, Report{r, colour}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if f == output.JSON {
				if !json.Valid(buf.Bytes()) {
					t.Errorf("JSON diff is not valid JSON:\n%s", out)
				}
				continue
			}
			if colour && f == output.Text {
				out = stripColour(out)
			}
			hostiletext.AssertInert(t, fmt.Sprintf("diff --output %s (colour %v)", f, colour), out)
		}
	}
}

// stripColour removes the diff's own colour codes, which are not the
// bundle's.
func stripColour(s string) string {
	for _, c := range []string{ansiReset, ansiBold, ansiRed, ansiGreen, ansiYellow} {
		s = string(bytes.ReplaceAll([]byte(s), []byte(c), nil))
	}
	return s
}
