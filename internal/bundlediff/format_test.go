package bundlediff

import (
	"bytes"
	"testing"
)

// TestColour: escape codes only when asked for, and only in text.
func TestColour(t *testing.T) {
	r := compareFiles(t, "testdata/cases/flag-changed")
	for _, tc := range []struct {
		f      Format
		colour bool
		want   bool
	}{{Text, true, true}, {Text, false, false}, {Markdown, true, false}, {JSON, true, false}} {
		var buf bytes.Buffer
		if err := Write(&buf, r, tc.f, tc.colour); err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(buf.Bytes(), []byte("\x1b[")); got != tc.want {
			t.Errorf("%s colour=%v: escape codes present = %v, want %v", tc.f, tc.colour, got, tc.want)
		}
	}
}
