package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/ptytest"
)

// TestCheckOnATerminal: check with no argument and stdin a terminal says
// what it expects (a usage error) instead of waiting for typing; check -
// on a terminal says it reads the terminal, then reads it to Ctrl-D.
func TestCheckOnATerminal(t *testing.T) {
	tty, controller := ptytest.Open(t)
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := New(Config{}).Main(append([]string{ProgramName, "check"}, args...),
			IO{Stdin: tty, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
		return code, errb.String()
	}
	if code, stderr := run(); code != exitUsage || !strings.Contains(stderr, "no bundle given, and stdin is a terminal: pipe one in") {
		t.Errorf("check on a terminal: exit %d, stderr:\n%s", code, stderr)
	}
	if _, err := controller.Write([]byte{4}); err != nil { // Ctrl-D: the end of what was typed
		t.Fatal(err)
	}
	code, stderr := run("-")
	if code != 1 || !strings.Contains(stderr, "reading a bundle from the terminal; end it with Ctrl-D") {
		t.Errorf("check - on a terminal: exit %d, stderr:\n%s", code, stderr)
	}
}
