package bundlediff

import (
	"bytes"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

// TestColour: escape codes only when asked for, and only in text.
func TestColour(t *testing.T) {
	r := compareFiles(t, "testdata/cases/flag-changed")
	for _, tc := range []struct {
		f      output.Format
		colour bool
		want   bool
	}{{output.Text, true, true}, {output.Text, false, false}, {markdown, true, false}, {output.JSON, true, false}} {
		var buf bytes.Buffer
		if err := output.Write(&buf, tc.f, Report{r, tc.colour}); err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(buf.Bytes(), []byte("\x1b[")); got != tc.want {
			t.Errorf("%s colour=%v: escape codes present = %v, want %v", tc.f, tc.colour, got, tc.want)
		}
	}
}
