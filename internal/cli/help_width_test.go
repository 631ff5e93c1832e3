package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/ptytest"
)

// TestHelpWrapsToTheTerminal: on a terminal every --help wraps to the
// terminal's width kept between helpWidthMin and helpWidthMax, so no line
// is wider than that (the synopsis and the examples, command lines to
// copy, stay whole),
// and a wide terminal's flags use the room it has.
func TestHelpWrapsToTheTerminal(t *testing.T) {
	for _, tc := range []struct{ cols, width int }{{45, 80}, {60, 80}, {80, 80}, {90, 90}, {140, 100}} {
		widest := 0
		for _, cmd := range New(Config{}).commands {
			help := helpOnTerminal(t, tc.cols, cmd.Name, "--help")
			whole := map[string]bool{}
			for _, ex := range cmd.Examples {
				whole["  "+ex] = true
			}
			lines := strings.Split(help, "\n")
			for i, line := range lines {
				if whole[line] || i > 0 && lines[i-1] == "Usage:" {
					continue
				}
				widest = max(widest, len(line))
				if len(line) > tc.width {
					t.Errorf("%d columns: %s --help has a line of %d, over %d: %q", tc.cols, cmd.Name, len(line), tc.width, line)
				}
			}
		}
		if widest < tc.width-5 {
			t.Errorf("%d columns: the widest --help line is %d, far under the %d it may use", tc.cols, widest, tc.width)
		}
	}
}

// TestHelpProseFitsTheNarrowestWidth: what a command's help says in its
// own words (the texts before and after the flags) is written to
// helpWidthMin columns, the narrowest --help wraps to, which only tables
// and flags are wrapped to.
func TestHelpProseFitsTheNarrowestWidth(t *testing.T) {
	for _, cmd := range New(Config{}).commands {
		for part, text := range map[string]string{"Long": cmd.Long, "More": cmd.More, "After": cmd.After} {
			for _, line := range strings.Split(text, "\n") {
				if len(line) > helpWidthMin {
					t.Errorf("%s's %s has a line of %d columns, over %d: %q", cmd.Name, part, len(line), helpWidthMin, line)
				}
			}
		}
	}
}

// helpOnTerminal runs the program with args, its stdout a terminal cols
// wide, and returns what the terminal showed (its \r\n read as \n).
func helpOnTerminal(t *testing.T, cols int, args ...string) string {
	t.Helper()
	tty, controller := ptytest.Open(t)
	ptytest.Resize(t, tty, cols, 50)
	shown := make(chan []byte)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, controller) // ends with EIO once the terminal end is closed and drained
		shown <- b.Bytes()
	}()
	var stderr bytes.Buffer
	std := IO{Stdin: strings.NewReader(""), Stdout: tty, Stderr: &stderr, Getenv: func(string) string { return "" }}
	code := New(Config{}).Main(append([]string{ProgramName}, args...), std)
	tty.Close()
	out := strings.ReplaceAll(string(<-shown), "\r\n", "\n")
	if code != 0 {
		t.Fatalf("%s at %d columns: exit %d\n%s", strings.Join(args, " "), cols, code, stderr.String())
	}
	return fmt.Sprint(out)
}
