package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/teardown"
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

// TestErrorsAreEscaped: an error quoting a hostile value (a bundle file's
// name here) reaches stderr escaped; only the error's own line breaks stay.
func TestErrorsAreEscaped(t *testing.T) {
	dir := t.TempDir()
	name := dir + "/bundle\x1b]0;pwned\x07\r\u2028.yaml"
	code, _, stderr := runHostCmd(t, "check", name)
	if code == 0 || !strings.Contains(stderr, `bundle\x1b]0;pwned\a\r\u2028.yaml`) {
		t.Errorf("exit %d, stderr does not name the file escaped:\n%q", code, stderr)
	}
	hostiletext.AssertInert(t, "check's error", stderr)
}
