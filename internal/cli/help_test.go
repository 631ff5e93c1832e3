package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestHelpLayout: every command's --help says what it does in a few lines,
// then one to three examples, then its flags, then how it exits under the
// one heading "Exit codes:", in that order; the long explanations are in
// the docs.
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
			order := []string{"\nUsage:\n", "\nExamples:\n", "\nFlags:\n", "\nExit codes:\n"}
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
// a closing parenthesis, a comment.
var shellSyntax = regexp.MustCompile(`\s*[|<>)#].*$`)

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
			cmd.Options(fs)
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

// exampleAnswers are the exits an example may end with besides 0: diff's
// 1 is its answer (the bundles differ), not a failure.
var exampleAnswers = map[string]int{"diff": exitFailure}

// TestHelpExamplesRun runs every --help example as written, with bash, the
// binary first on PATH, in a directory that holds what the examples name:
// an empty ./root (the scratch root) and two bundles, old.yaml and
// new.yaml; an example marked "# needs ..." (help.go, needs) is skipped
// with that reason.
func TestHelpExamplesRun(t *testing.T) {
	bin := tooltest.BuildSelf(t, t.TempDir())
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skipf("skipping: the examples are run by bash, which is not on PATH: %v", err)
	}
	for _, cmd := range New(Config{}).commands {
		for _, ex := range cmd.Examples {
			t.Run(cmd.Name+"/"+ex, func(t *testing.T) {
				if _, reason, ok := strings.Cut(ex, "# needs "); ok {
					t.Skipf("skipping: it needs %s", reason)
				}
				dir := t.TempDir()
				if err := os.Mkdir(filepath.Join(dir, "root"), 0o755); err != nil {
					t.Fatal(err)
				}
				examplesFixture(t, dir)
				run := exec.Command("bash", "-e", "-o", "pipefail", "-c", ex)
				run.Dir = dir
				run.Env = exampleEnv(bin, dir)
				out, err := run.CombinedOutput()
				code := run.ProcessState.ExitCode()
				if err != nil && code != exampleAnswers[cmd.Name] || code < 0 {
					t.Errorf("%q: exit %d (%v)\n%s", ex, code, err, out)
				}
			})
		}
	}
}

// TestHelpFitsTheWidth: off a terminal every --help wraps to helpWidthMax
// columns, the shared flags' long texts included; an example is a command
// line to copy, which stays whole.
func TestHelpFitsTheWidth(t *testing.T) {
	_, help, _ := runCLI(t, "", "--help")
	for _, line := range strings.Split(help, "\n") {
		if len(line) > helpWidthMax {
			t.Errorf("--help has a line of %d columns, over %d: %q", len(line), helpWidthMax, line)
		}
	}
	for _, cmd := range New(Config{}).commands {
		_, help, _ := runCLI(t, "", cmd.Name, "--help")
		examples := map[string]bool{}
		for _, ex := range cmd.Examples {
			examples["  "+ex] = true
		}
		for _, line := range strings.Split(help, "\n") {
			if len(line) > helpWidthMax && !examples[line] {
				t.Errorf("%s --help has a line of %d columns, over %d: %q", cmd.Name, len(line), helpWidthMax, line)
			}
		}
	}
}

// TestCompletionHelpSaysWhatEachShellNeeds: completion's --help names every
// shell it writes a script for with what that shell needs, and bash's
// bash-completion package, whose _get_comp_words_by_ref the script calls.
func TestCompletionHelpSaysWhatEachShellNeeds(t *testing.T) {
	_, help, _ := runCLI(t, "", "completion", "--help")
	_, needs, ok := strings.Cut(help, "What each shell needs:\n")
	if !ok {
		t.Fatalf("completion --help says nothing of what each shell needs:\n%s", help)
	}
	for _, s := range shellNames() {
		if !strings.Contains(needs, "\n  "+s+" ") && !strings.HasPrefix(needs, "  "+s+" ") {
			t.Errorf("completion --help does not say what %s needs:\n%s", s, needs)
		}
	}
	for _, want := range []string{"bash-completion", "_get_comp_words_by_ref"} {
		if !strings.Contains(needs, want) {
			t.Errorf("completion --help does not name %s:\n%s", want, needs)
		}
	}
}

// exampleEnv is the examples' environment: the binary first on PATH, dir
// as HOME, nothing of the caller's KONNECTIVITY_* settings.
func exampleEnv(bin, dir string) []string {
	return []string{"PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C"}
}

// examplesFixture writes the two bundles the examples compare, old.yaml
// (ipv4) and new.yaml (ipv6), as the binary builds them.
func examplesFixture(t *testing.T, dir string) {
	t.Helper()
	for name, args := range map[string][]string{
		"old.yaml": {"build", "ipv4", "--bootstrap-ip", "192.0.2.10", "--proxy-version", "v0.36"},
		"new.yaml": {"build", "ipv6", "--bootstrap-ip", "2001:db8::10", "--proxy-version", "v0.36"},
	} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 0 {
			t.Fatalf("%q: exit %d\n%s", args, code, stderr)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
