package cli

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestWordsBeforeTheCommand: before the command the program takes only
// -h, --help and --version. A flag of a command there, -- or an empty
// word is refused alike, whichever flag it is and whether it takes a
// value, instead of cobra's guesses (which ran `--bootstrap-ip X build`,
// refused `--verbose build`, and said `unknown command "build"; did you
// mean "build"?` after --).
func TestWordsBeforeTheCommand(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string // what stderr holds; "" wants it empty
	}{
		{[]string{"--", "build"}, exitUsage, "konnectivity-bundle: -- comes before the command: give the command first"},
		{[]string{"--verbose", "build"}, exitUsage, "konnectivity-bundle: --verbose comes before the command"},
		{[]string{"--bootstrap-ip", "192.0.2.10", "build"}, exitUsage, "konnectivity-bundle: --bootstrap-ip comes before the command"},
		{[]string{"--timeout", "3s", "wait"}, exitUsage, "konnectivity-bundle: --timeout comes before the command"},
		{[]string{"-o", "json", "version"}, exitUsage, "konnectivity-bundle: -o comes before the command"},
		{[]string{"--help", "--", "build"}, exitUsage, "konnectivity-bundle: -- comes before the command"},
		{[]string{"", "build"}, exitUsage, "konnectivity-bundle: unknown command \"\"\nRun 'konnectivity-bundle --help' for the commands.\n"},
		{[]string{""}, exitUsage, "konnectivity-bundle: unknown command \"\"\nRun 'konnectivity-bundle --help' for the commands.\n"},
		{[]string{"--version"}, exitSuccess, ""},
		{[]string{"--help", "build"}, exitSuccess, ""},
		{[]string{"-h", "version"}, exitSuccess, ""},
		{[]string{"build", "--", "ipv4"}, exitUsage, "--bootstrap-ip was not given"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := runCLI(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, stderr)
			}
			if tc.stderr == "" && stderr != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr:\n%s\nwant it to hold %q", stderr, tc.stderr)
			}
			if strings.Contains(stderr, "did you mean") {
				t.Errorf("stderr suggests a command for a word that is not one:\n%s", stderr)
			}
		})
	}
}

// TestShortWordsSuggestOnlyWhatTheyStart: two edits turn a word of one or
// two characters into any short name, so such a word is answered only
// with the names it starts.
func TestShortWordsSuggestOnlyWhatTheyStart(t *testing.T) {
	for word, want := range map[string]string{
		"b":  `unknown command "b"; did you mean "build"?`,
		"-":  `unknown command "-"` + "\n",
		"xy": `unknown command "xy"` + "\n",
		"pr": `unknown command "pr"; did you mean "probe" or "proxy-version"?`,
	} {
		code, _, stderr := runCLI(t, "", word)
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant it to hold %q", word, code, stderr, want)
		}
	}
}

// TestHelpCommand: `help COMMAND` prints what `COMMAND --help` does, help
// included, in the project's layout; a topic the program does not have
// is an unknown command (exit 2, names near it), not the overview.
func TestHelpCommand(t *testing.T) {
	helpOf := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := runCLI(t, "", args...)
		if code != exitSuccess || stderr != "" {
			t.Fatalf("%q: exit %d, stderr:\n%s", args, code, stderr)
		}
		return stdout
	}
	_, overview, _ := runCLI(t, "") // the overview, on stderr without a command
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help"}, helpOf("--help")},
		{[]string{"help", "build"}, helpOf("build", "--help")},
		{[]string{"help", "help"}, helpOf("help", "--help")},
		{[]string{"help", "-h"}, helpOf("help", "--help")},
	} {
		if got := helpOf(tc.args...); got != tc.want {
			t.Errorf("%q printed:\n%s\nwant:\n%s", tc.args, got, tc.want)
		}
	}
	own := helpOf("help", "help")
	for _, want := range []string{"Usage:\n  konnectivity-bundle help [flags] [COMMAND]\n", "\nExit codes:\n  0  printed\n  1  the help could not be written\n  2  usage error\n"} {
		if !strings.Contains(own, want) {
			t.Errorf("help help lacks %q:\n%s", want, own)
		}
	}
	if strings.Contains(overview, "\n  help ") {
		t.Errorf("the overview lists help among the commands:\n%s", overview)
	}
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"help", "nosuch"}, "konnectivity-bundle: unknown command \"nosuch\"\n"},
		{[]string{"help", "biuld"}, "konnectivity-bundle: unknown command \"biuld\"; did you mean \"build\"?\n"},
		{[]string{"help", "build", "render"}, "konnectivity-bundle help: help takes one COMMAND, got 2\n"},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, tc.stderr) {
			t.Errorf("%q: exit %d (want %d), stdout %q, stderr:\n%s\nwant it to start %q", tc.args, code, exitUsage, stdout, stderr, tc.stderr)
		}
	}
}

// TestEmptyOverlayArgument: an empty OVERLAY or DIR (`render "$OVERLAY"`
// with the variable unset) is a usage error naming the argument, not the
// default overlay: render wrote the ipv4 bundle onto the root for it.
func TestEmptyOverlayArgument(t *testing.T) {
	for _, name := range []string{"build", "render"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			args := []string{"build", "--bootstrap-ip", hostTestIP, "--image", hostTestImage, ""}
			if name == "render" {
				args = append(hostRenderArgs(root), "")
			}
			code, stdout, stderr := runHostCmd(t, args...)
			want := "konnectivity-bundle " + name + ": the OVERLAY or DIR argument is empty"
			if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) {
				t.Errorf("exit %d (want %d), stdout %d bytes, stderr:\n%s\nwant it to start %q", code, exitUsage, len(stdout), stderr, want)
			}
			if entries, _ := os.ReadDir(root); len(entries) != 0 {
				t.Errorf("render wrote %d entries under the root for an empty overlay", len(entries))
			}
		})
	}
}

// TestEchoedArgumentsAreBounded: the arguments a command refuses are
// echoed cut, as an unknown command is (echoMax), however many or long:
// `version` with 20,000 words printed them all back.
func TestEchoedArgumentsAreBounded(t *testing.T) {
	long := strings.Repeat("a", 10000)
	many := strings.Fields(strings.Repeat("word ", 20000))
	for _, args := range [][]string{
		append([]string{"version"}, many...),
		{"status", long},
		{"completion", long},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != exitUsage || len(stderr) > 400 {
			t.Errorf("%s: exit %d (want %d), %d bytes on stderr:\n%.600s", args[0], code, exitUsage, len(stderr), stderr)
		}
	}
}

// failingWriter fails every write, as /dev/full does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestHelpWriteFailure: help that could not be written exits 1 with the
// program's own error line, as version's output does; cobra printed its
// bare error and the command exited 0 ("printed").
func TestHelpWriteFailure(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"build", "--help"}, {"help", "render"}, {"help"}} {
		var errb bytes.Buffer
		io := IO{Stdin: strings.NewReader(""), Stdout: failingWriter{}, Stderr: &errb, Getenv: func(string) string { return "" }}
		code := New(Config{}).Main(append([]string{ProgramName}, args...), io)
		want := "konnectivity-bundle"
		if args[0] != "--help" {
			want += " " + args[0]
		}
		want += ": writing the help: no space left on device\n"
		if code != exitFailure || errb.String() != want {
			t.Errorf("%q: exit %d (want %d), stderr %q, want %q", args, code, exitFailure, errb.String(), want)
		}
	}
}
