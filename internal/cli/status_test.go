package cli

import (
	"strings"
	"testing"
)

// The status and probe scenarios against the real server and agent are in
// internal/hoststatus and internal/egressprobe; these cover the command's
// own contract: arguments, formats and exit codes.
func TestStatusAndProbeCommands(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"status of an unrendered root", []string{"status", "--root", empty}, 1, "render has not written this root", ""},
		{"status json", []string{"status", "--root", empty, "-o", "json"}, 1, `"usable": false`, ""},
		{"status bad output", []string{"status", "-o", "yaml"}, 2, "", "--output"},
		{"status takes no args", []string{"status", "x"}, 2, "", "takes no arguments"},
		{"probe unrendered root", []string{"probe", "--root", empty, "192.0.2.1:443"}, 1, "failed: no state file", ""},
		{"probe json", []string{"probe", "--root", empty, "-o", "json", "https://192.0.2.1/"}, 1, `"stage": "config"`, ""},
		{"probe needs a target", []string{"probe"}, 2, "", "exactly one TARGET"},
		{"probe bad target", []string{"probe", "--root", empty, "nohost"}, 2, "", "give host:port"},
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
