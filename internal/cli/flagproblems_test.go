package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// badFlagValue is a value no flag of this program takes: every flag whose
// value is checked as the flags are read (a version, an address, an output
// format, a number, a duration) refuses it.
const badFlagValue = "bogus"

// TestFlagProblemsExitUsage: a flag problem is a usage error, exit 2, in
// every command the CLI lists: an unknown flag, a flag whose value it
// refuses as the flags are read (each such flag of each command, found by
// asking the flag itself), and a required flag left out. The commands and
// their flags come from the CLI, so a new command or flag is walked too.
func TestFlagProblemsExitUsage(t *testing.T) {
	c := New(Config{})
	for _, cmd := range c.commands {
		t.Run(cmd.Name, func(t *testing.T) {
			fs := newFlagSet(cmd)
			cmd.Options(fs)
			cases := [][]string{{"--no-such-flag"}}
			required := false
			fs.VisitAll(func(f *pflag.Flag) {
				if f.Annotations[requiredAnnotation] != nil {
					required = true
				}
				probe := newFlagSet(cmd)
				cmd.Options(probe)
				if probe.Lookup(f.Name).Value.Set(badFlagValue) != nil {
					cases = append(cases, []string{"--" + f.Name + "=" + badFlagValue}) // = so a bool flag takes it too
				}
			})
			if required {
				cases = append(cases, nil) // every required flag left out
			}
			for _, args := range cases {
				code, stdout, stderr := runProgram(t, c, nil, append([]string{cmd.Name}, args...)...)
				if code != exitUsage || stdout != "" || !strings.Contains(stderr, "--help' for usage") {
					t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit %d (usage error) pointing at --help",
						cmd.Name, args, code, stdout, stderr, exitUsage)
				}
			}
		})
	}
}

// TestFlagProblemsFoundLater: the flag problems a command can only see
// once it runs (a value checked against a list after parsing, a flag
// missing for what the other flags ask) are usage errors too, exit 2.
func TestFlagProblemsFoundLater(t *testing.T) {
	root := t.TempDir()
	for _, args := range [][]string{
		{"render", "--root", root, "--image", hostTestImage},                                                                 // no --bootstrap-ip, none in the overlay
		{"render", "--root", root, "--bootstrap-ip", hostTestIP, "--image", hostTestImage, "--key-algorithm", badFlagValue},  // unknown algorithm
		{"render", "--root", root, "--bootstrap-ip", hostTestIP, "--image", "quay.io/Upper/case:1"},                          // not a reference
		{"render", "--root", root, "--bootstrap-ip", hostTestIP, "--image", "quay.io/x/y@sha256:" + strings.Repeat("0", 64)}, // by digest, no --proxy-version
		{"render", "--root", root, "--bootstrap-ip", hostTestIP},                                                             // no --image, and the overlay names no image or version
		{"render", "--root", root, "--bootstrap-ip", hostTestIP, "--image", hostTestImage, "ipv6"},                           // an address of the family overlay ipv6 does not take
		{"certs", "--dir", t.TempDir(), "--bootstrap-ip", hostTestIP, "--key-algorithm", badFlagValue},
		{"ports", "-o", "nftables", "--bootstrap-ip", hostTestIP, "--image", hostTestImage}, // no --from
		{"ports", "-o", "nftables", "--bootstrap-ip", hostTestIP, "--image", hostTestImage, "--from", "0.0.0.0/0"},
		{"build", "ipv4"}, // no --bootstrap-ip, none in the overlay
		{"ports", "ipv4"},
		{"detect-ip", "--family", badFlagValue},
		{"diff", "--color", badFlagValue, "a", "b"},
		{"probe"}, // no TARGET
		{"proxy-version"},
	} {
		code, _, stderr := runHostCmd(t, args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want %d (usage error)\n%s", args, code, exitUsage, stderr)
		}
		if strings.Count(stderr, "fix:") > 1 {
			t.Errorf("%q: more than one fix:\n%s", args, stderr)
		}
	}
	if entries, err := os.ReadDir(root); err != nil || len(entries) != 0 {
		t.Errorf("a refused render left %d entries in the root (%v)", len(entries), err)
	}
}
