package cli

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gate"
)

// TestWaitHelpListsEveryCause: wait --help names every cause of the gate's
// table with what it means, in the table's order, and its list wraps as
// the text around it.
func TestWaitHelpListsEveryCause(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "wait", "--help")
	if code != 0 {
		t.Fatalf("wait --help: exit %d\n%s", code, stderr)
	}
	flat := strings.Join(strings.Fields(stdout), " ")
	at := 0
	for _, c := range gate.Causes() {
		i := strings.Index(flat[at:], " "+c.Help())
		if i < 0 {
			t.Errorf("wait --help does not list %q after the causes before it in the table", c.Help())
			continue
		}
		at += i + 1 + len(c.Help())
	}
	for _, line := range strings.Split(waitCauses(), "\n") {
		if len(line) > helpWidth {
			t.Errorf("a line of the causes is %d characters, over %d: %q", len(line), helpWidth, line)
		}
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		want  string
	}{
		{"a bb ccc", 4, "a bb\nccc"},
		{"a bb ccc", 8, "a bb ccc"},
		{"  spaces   collapse ", 20, "spaces collapse"},
		{"longword x", 4, "longword\nx"},
		{"", 10, ""},
	} {
		if got := wrap(tc.text, tc.width); got != tc.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}
