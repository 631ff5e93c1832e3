package cli

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

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
