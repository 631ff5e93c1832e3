package cli

import (
	"bytes"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/teardown"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

// TestTeardownReportEscapesNames: paths from the state file and object names
// from the cluster reach teardown's lines escaped.
func TestTeardownReportEscapesNames(t *testing.T) {
	h := hostiletext.Values
	rep := &teardown.Report{Removed: h, AlreadyGone: h, Deleted: h, NotFound: h, Refused: h}
	var out bytes.Buffer
	printTeardownReport(&out, rep)
	hostiletext.AssertInert(t, "teardown report", out.String())
	if got, want := bytes.Count(out.Bytes(), []byte("\n")), 5*len(h)+1; got != want {
		t.Errorf("%d lines, want %d:\n%s", got, want, out.String())
	}
}
