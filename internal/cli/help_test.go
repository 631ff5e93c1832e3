package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestHelpLayout: every command's --help says what it does in a few lines,
// then one to three examples, then its flags, then how it exits (version
// only prints), in that order; the long explanations are in the docs.
func TestHelpLayout(t *testing.T) {
	for _, cmd := range New(Config{}).commands {
		t.Run(cmd.Name, func(t *testing.T) {
			code, help, stderr := runCLI(t, "", cmd.Name, "--help")
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			if n := strings.Count(strings.TrimSpace(cmd.Long), "\n") + 1; n > 8 {
				t.Errorf("the text before the examples is %d lines; keep it to what the command does (8 at most) and move the rest to the docs", n)
			}
			if n := len(cmd.Examples); n < 1 || n > 3 {
				t.Errorf("%d examples, want 1 to 3", n)
			}
			order := []string{"\nUsage:\n", "\nExamples:\n", "\nFlags:\n", "\nExit "}
			if cmd.Name == "version" {
				order = order[:3]
			}
			at := 0
			for _, heading := range order {
				i := strings.Index(help[at:], heading)
				if i < 0 {
					t.Errorf("%q missing, or not after %q:\n%s", strings.TrimSpace(heading), order, help)
					break
				}
				at += i + len(heading)
			}
		})
	}
}

// shellSyntax ends an invocation inside an example: a pipe, a redirection,
// a closing parenthesis.
var shellSyntax = regexp.MustCompile(`\s*[|<>)].*$`)

// TestHelpExamplesParse: each example runs the command it is listed
// under, and the command's flags read it: no example names a flag the
// command lacks or a value it refuses.
func TestHelpExamplesParse(t *testing.T) {
	for _, cmd := range New(Config{}).commands {
		for _, ex := range cmd.Examples {
			_, call, ok := strings.Cut(ex, ProgramName+" "+cmd.Name)
			if !ok {
				t.Errorf("%s: example %q does not run %s %s", cmd.Name, ex, ProgramName, cmd.Name)
				continue
			}
			args := strings.Fields(strings.ReplaceAll(shellSyntax.ReplaceAllString(call, ""), `"`, ""))
			fs := newFlagSet(cmd)
			cmd.Setup(fs)
			if err := fs.Parse(args); err != nil {
				t.Errorf("%s: example %q: %v", cmd.Name, ex, err)
			}
		}
	}
}

// TestOverviewAligned: the overview's command list is one column wide
// enough for the longest name, every summary starting in the same column.
func TestOverviewAligned(t *testing.T) {
	_, stdout, _ := runCLI(t, "", "--help")
	_, list, _ := strings.Cut(stdout, "Commands:\n")
	list, _, _ = strings.Cut(list, "\n\n")
	column := -1
	for _, line := range strings.Split(list, "\n") {
		name := strings.Fields(line)[0]
		col := strings.Index(line[2+len(name):], strings.Fields(line)[1]) + 2 + len(name)
		if column >= 0 && col != column {
			t.Errorf("%q: the summary starts at column %d, the others at %d", line, col, column)
		}
		column = col
	}
}
