package cli

import (
	"strings"
	"testing"
)

// TestUnknownCommand: a misspelled command is a usage error answered with
// the nearest commands and where the list is, not with the whole overview.
func TestUnknownCommand(t *testing.T) {
	for _, tc := range []struct {
		arg, want string
	}{
		{"buidl", `unknown command "buidl"; did you mean "build"?`},
		{"stauts", `unknown command "stauts"; did you mean "status"?`},
		{"proxy", `unknown command "proxy"; did you mean "probe" or "proxy-version"?`},
		{"comp", `unknown command "comp"; did you mean "completion"?`},
		{"zzzzzz", `unknown command "zzzzzz"` + "\n"},
	} {
		for _, args := range [][]string{{tc.arg}, {tc.arg, "--root", "/"}} { // a flag after it does not hide it
			code, stdout, stderr := runCLI(t, "", args...)
			want := ProgramName + ": " + tc.want
			if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, stdout, stderr, want)
			}
			if !strings.HasSuffix(stderr, "Run '"+ProgramName+" --help' for the commands.\n") || strings.Contains(stderr, "Commands:") {
				t.Errorf("%q: stderr %q; want a pointer to --help, not the command list", args, stderr)
			}
		}
	}
}

// TestFlagOfAnotherCommand: an unknown flag that another command declares
// says which commands take it; --overlay on a command that takes the
// overlay as its argument says how to give it.
func TestFlagOfAnotherCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"build", "--overlay", "ipv6"}, "unknown flag: --overlay: build takes the overlay as its argument: konnectivity-bundle build ipv6\n"},
		{[]string{"ports", "--overlay=sno"}, "unknown flag: --overlay: ports takes the overlay as its argument: konnectivity-bundle ports sno\n"},
		{[]string{"check", "--overlay"}, "unknown flag: --overlay: check takes the overlay as its argument: konnectivity-bundle check OVERLAY\n"},
		{[]string{"build", "--kubeconfig", "k"}, "unknown flag: --kubeconfig: --kubeconfig is a flag of probe, status, teardown, wait (not of build)\n"},
		{[]string{"status", "--dry-run"}, "unknown flag: --dry-run: --dry-run is a flag of render (not of status)\n"},
		// render's --overlay is hidden: not advertised to other commands.
		{[]string{"status", "--overlay", "x"}, "unknown flag: --overlay\n"},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}
