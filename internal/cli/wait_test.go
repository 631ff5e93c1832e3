package cli

import (
	"strings"
	"testing"
)

// The gate's verdicts against the real server and agents are in
// internal/gate; these cover the command's contract: arguments, formats,
// progress on stderr and exit codes.
func TestWaitCommand(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"unrendered root times out", []string{"wait", "--root", empty, "--timeout", "300ms"}, 1, "NOT ready after", "waiting"},
		{"the verdict names the cause", []string{"wait", "--root", empty, "--timeout", "300ms"}, 1, "not-rendered", "for a usable rendered root"},
		{"json", []string{"wait", "--root", empty, "--timeout", "300ms", "-o", "json"}, 1, `"cause": "not-rendered"`, ""},
		{"takes no args", []string{"wait", "x"}, 2, "", "takes no arguments"},
		{"bad output", []string{"wait", "-o", "yaml"}, 2, "", "--output"},
		{"min agents", []string{"wait", "--min-agents", "0"}, 2, "", "--min-agents"},
		{"timeout", []string{"wait", "--timeout", "0s"}, 2, "", "--timeout"},
		{"bad target", []string{"wait", "--target", "nohost"}, 2, "", "--target"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderr)
			}
		})
	}
}
