package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/ptytest"
)

// TestCheckOnATerminal: check with no argument and stdin a terminal says
// what it expects (a usage error) instead of waiting for typing.
func TestCheckOnATerminal(t *testing.T) {
	tty, _ := ptytest.Open(t)
	code, stderr := runOnTerminal(tty, "check")
	if code != exitUsage || !strings.Contains(stderr, "no bundle given, and stdin is a terminal: pipe one in") {
		t.Errorf("check on a terminal: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestDashOnATerminal: every command that reads a bundle from - says, when
// stdin is a terminal, that it reads the terminal and how to end it, then
// reads it to Ctrl-D, instead of waiting silently. What was typed (nothing)
// is then read as each reads an empty bundle: check finds no server pod,
// ports no tunnel, diff every object of B added.
func TestDashOnATerminal(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"check", "-"}, 1},
		{[]string{"ports", "-"}, 0},
		{[]string{"diff", "-", "ipv4", "--bootstrap-ip", "192.0.2.10", "--proxy-version", "v0.36"}, 1},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			tty, controller := ptytest.Open(t)
			if _, err := controller.Write([]byte{4}); err != nil { // Ctrl-D: the end of what was typed
				t.Fatal(err)
			}
			code, stderr := runOnTerminal(tty, tc.args...)
			note := tc.args[0] + ": reading a bundle from the terminal; end it with Ctrl-D\n"
			if code != tc.code || !strings.HasPrefix(stderr, note) {
				t.Errorf("%v on a terminal: exit %d (want %d), stderr does not begin %q:\n%s", tc.args, code, tc.code, note, stderr)
			}
		})
	}
}

// runOnTerminal runs the command with stdin the terminal tty.
func runOnTerminal(tty io.Reader, args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := New(Config{}).Main(append([]string{ProgramName}, args...),
		IO{Stdin: tty, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	return code, errb.String()
}
