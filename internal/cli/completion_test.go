package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// complete runs one __complete request in-process, as the shell scripts
// send it, and returns the suggestions (descriptions cut off) and the
// directive line.
func completeWords(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, "", append([]string{cobra.ShellCompRequestCmd}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %q: exit %d\n%s", args, code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var words []string
	for _, l := range lines[:len(lines)-1] {
		word, _, _ := strings.Cut(l, "\t")
		words = append(words, word)
	}
	return words, lines[len(lines)-1]
}

// TestCompletion: the completion requests answer with the CLI's own
// commands, each command's flags, the embedded overlays where a bundle is
// taken, and the values of enum flags, read from the tables the flags are
// checked against.
func TestCompletion(t *testing.T) {
	var commands []string
	for _, cmd := range New(Config{}).commands {
		commands = append(commands, cmd.Name)
	}
	noFiles := ":4"  // cobra.ShellCompDirectiveNoFileComp
	filesToo := ":0" // cobra.ShellCompDirectiveDefault: the shell adds its files
	formats := []string{"text", "json"}
	for _, tc := range []struct {
		name      string
		args      []string
		want      []string // exactly these, in this order
		contains  []string // at least these
		directive string
	}{
		{"commands", []string{""}, nil, commands, noFiles},
		{"a prefix", []string{"pr"}, []string{"probe", "proxy-version"}, nil, noFiles},
		{"build's overlay", []string{"build", ""}, kustbuild.Overlays(), nil, filesToo},
		{"check's bundle", []string{"check", ""}, kustbuild.Overlays(), nil, filesToo},
		{"render's overlay", []string{"render", "--root", "/", ""}, kustbuild.Overlays(), nil, filesToo},
		{"ports' bundle", []string{"ports", "i"}, kustbuild.Overlays(), nil, filesToo},
		{"diff's A and B", []string{"diff", "ipv4", ""}, kustbuild.Overlays(), nil, filesToo},
		{"nothing after diff's B", []string{"diff", "ipv4", "ipv6", ""}, nil, nil, noFiles},
		{"nothing after build's overlay", []string{"build", "ipv4", ""}, nil, nil, noFiles},
		{"no argument for status", []string{"status", ""}, nil, nil, noFiles},
		{"build's flags", []string{"build", "--"}, nil, []string{"--bootstrap-ip", "--image", "--proxy-version", "--keep-pin", "--override-pin"}, noFiles},
		{"check's --output", []string{"check", "--output", ""}, formats, nil, noFiles},
		{"ports' -o", []string{"ports", "-o", ""}, append(formats, firewall.Formats()...), nil, noFiles},
		{"proxy-version's flags", []string{"proxy-version", "--"}, nil, []string{"--from-image", "--from-help", "--list"}, noFiles},
		{"--proxy-version", []string{"render", "--proxy-version", ""}, proxyversion.VersionNames(), nil, noFiles},
		{"diff's --proxy-version", []string{"diff", "--proxy-version", ""}, proxyversion.VersionNames(), nil, noFiles},
		{"--key-algorithm", []string{"certs", "--key-algorithm", ""}, certs.KeyAlgorithms, nil, noFiles},
		{"the shells", []string{"completion", ""}, shellNames(), nil, noFiles},
		{"help's commands", []string{"help", ""}, append([]string{"help"}, commands...), nil, noFiles},
		{"nothing after help's command", []string{"help", "build", ""}, nil, nil, noFiles},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, directive := completeWords(t, tc.args...)
			if tc.want != nil || tc.contains == nil {
				if !slices.Equal(got, tc.want) {
					t.Errorf("__complete %q = %q, want %q", tc.args, got, tc.want)
				}
			}
			for _, w := range tc.contains {
				if !slices.Contains(got, w) {
					t.Errorf("__complete %q = %q, want it to include %q", tc.args, got, w)
				}
			}
			if directive != tc.directive {
				t.Errorf("__complete %q: directive %s, want %s", tc.args, directive, tc.directive)
			}
		})
	}
}

// TestCompletionHidesHiddenFlags: render's --overlay, kept for scripts, is
// not offered.
func TestCompletionHidesHiddenFlags(t *testing.T) {
	got, _ := completeWords(t, "render", "--")
	if slices.Contains(got, "--overlay") || !slices.Contains(got, "--root") {
		t.Errorf("render's flags complete as %q: want --root and not the hidden --overlay", got)
	}
}

// TestEnumValuesAreAccepted: every value completion offers for a flag is
// one the flag takes.
func TestEnumValuesAreAccepted(t *testing.T) {
	for _, cmd := range New(Config{}).commands {
		fs := newFlagSet(cmd)
		cmd.Options(fs)
		for name, values := range flagValues(fs) {
			for _, v := range values {
				fs := newFlagSet(cmd)
				cmd.Options(fs)
				if err := fs.Set(name, v); err != nil {
					t.Errorf("%s --%s %s, offered by completion, is refused: %v", cmd.Name, name, v, err)
				}
				if name == "key-algorithm" {
					if err := certs.CheckKey(v, 0); err != nil {
						t.Errorf("--key-algorithm %s, offered by completion, is refused: %v", v, err)
					}
				}
			}
		}
	}
}

// TestCompletionScripts: each shell's script is written, non-empty and
// asks the binary for completions; bash (and zsh or fish where installed)
// reads it without a syntax error.
func TestCompletionScripts(t *testing.T) {
	check := map[string][]string{"bash": {"-n"}, "zsh": {"-n"}, "fish": {"--no-execute"}}
	for _, shell := range shellNames() {
		t.Run(shell, func(t *testing.T) {
			code, script, stderr := runCLI(t, "", "completion", shell)
			if code != 0 || !strings.Contains(script, cobra.ShellCompRequestCmd) || !strings.Contains(script, ProgramName) {
				t.Fatalf("completion %s: exit %d, %d bytes, stderr %q: want a script that calls %s %s", shell, code, len(script), stderr, ProgramName, cobra.ShellCompRequestCmd)
			}
			bin, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed: the script is not parsed", shell)
			}
			file := filepath.Join(t.TempDir(), "script")
			if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(bin, append(check[shell], file)...).CombinedOutput(); err != nil {
				t.Errorf("%s %v: %v\n%s", shell, check[shell], err, out)
			}
		})
	}
	code, _, stderr := runCLI(t, "", "completion", "powershell")
	if code != 2 || !strings.Contains(stderr, `unknown shell "powershell": use one of bash, zsh, fish`) {
		t.Errorf("completion powershell: exit %d, stderr %q", code, stderr)
	}
}
