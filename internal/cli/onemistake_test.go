package cli

import (
	"strings"
	"testing"
)

// builds names, for each command that builds a bundle, the arguments that
// build the ipv4 overlay (for diff, ipv4 as side A). A command that takes
// --proxy-version and is missing here fails TestOneMistakeOneWording.
var builds = map[string]func(t *testing.T) []string{
	"build":  func(*testing.T) []string { return []string{"ipv4"} },
	"check":  func(*testing.T) []string { return []string{"ipv4"} },
	"diff":   func(*testing.T) []string { return []string{"ipv4", "ipv6"} },
	"ports":  func(*testing.T) []string { return []string{"ipv4"} },
	"render": func(t *testing.T) []string { return []string{"ipv4", "--root", t.TempDir(), "--dry-run"} },
}

// TestOneMistakeOneWording: the same mistake gets the same exit code and
// the same words in every command that builds a bundle (every command the
// CLI lists with --proxy-version): no bootstrap IP, a proxy version nothing
// names, an --image that is no reference, and a --bootstrap-ip of a family
// the overlay does not take. Each is a usage error (exit 2): docs/commands.md,
// "Exit codes".
func TestOneMistakeOneWording(t *testing.T) {
	mistakes := []struct {
		name string
		args []string // diff takes A,B
		diff []string
		says string
	}{
		{"no bootstrap IP", []string{"--proxy-version", "v0.28"}, []string{"--proxy-version", "v0.28"},
			"--bootstrap-ip was not given, and overlay ipv4 sets no spec.bootstrapIP: agents dial that address and the server certificate names it (fix: pass --bootstrap-ip IP"},
		{"no proxy version", []string{"--bootstrap-ip", "192.0.2.10"}, []string{"--bootstrap-ip", "192.0.2.10,2001:db8::10"},
			`--proxy-version was not given, and overlay ipv4 sets no spec.proxyVersion: its image "apiserver-network-proxy" is the placeholder`},
		{"bad image", []string{"--bootstrap-ip", "192.0.2.10", "--image", "BAD IMAGE"}, []string{"--bootstrap-ip", "192.0.2.10,2001:db8::10", "--image", "BAD IMAGE"},
			`invalid argument "BAD IMAGE" for "--image" flag: "BAD IMAGE" is not a valid image reference: `},
		{"family of another overlay", []string{"--bootstrap-ip", "2001:db8::10", "--proxy-version", "v0.28"}, []string{"--bootstrap-ip", "2001:db8::10,2001:db8::10", "--proxy-version", "v0.28"},
			"--bootstrap-ip 2001:db8::10 is an IPv6 address, but overlay ipv4 is for IPv4 (fix: build the ipv6 overlay (or dualstack for both families), or give an IPv4 address)"},
	}
	seen := 0
	for _, cmd := range New(Config{}).commands {
		fs := newFlagSet(cmd)
		cmd.Options(fs)
		if fs.Lookup("proxy-version") == nil {
			continue
		}
		seen++
		args, ok := builds[cmd.Name]
		if !ok {
			t.Errorf("%s builds a bundle (it takes --proxy-version) but builds has no arguments for it", cmd.Name)
			continue
		}
		for _, m := range mistakes {
			t.Run(cmd.Name+"/"+m.name, func(t *testing.T) {
				flags := m.args
				if cmd.Name == "diff" {
					flags = m.diff
				}
				code, stdout, stderr := runCLI(t, "", append(append([]string{cmd.Name}, args(t)...), flags...)...)
				if code != exitUsage || !strings.Contains(stderr, m.says) || strings.Count(stderr, "fix:") != 1 {
					t.Errorf("exit %d, want %d, with one fix and saying\n  %s\nstdout:\n%s\nstderr:\n%s", code, exitUsage, m.says, stdout, stderr)
				}
			})
		}
	}
	if seen < len(builds) {
		t.Errorf("only %d commands take --proxy-version, builds lists %d", seen, len(builds))
	}
}
