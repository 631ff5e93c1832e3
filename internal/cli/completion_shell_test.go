package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// evalLines are command lines (before the word being completed, which is
// an overlay) holding a word that runs a command if the completion script
// evaluates it: each would create a file named PWN.
// Fish has no backticks; its own substitution is (touch PWN).
func evalLines(shell string) [][2]string {
	substitute := "`touch PWN`"
	if shell == "fish" {
		substitute = "(touch PWN)"
	}
	return [][2]string{{"diff", "$(touch PWN)"}, {"diff", substitute}, {"render", "--root=$(touch PWN)"}}
}

// shellDrivers complete "konnectivity-bundle W1 W2 <TAB>" in a real shell
// with the script in $SCRIPT and the words in $W1 and $W2, and print what is
// offered: bash through bash-completion, zsh with compsys' _describe and
// _arguments replaced by printers (they need a live line editor), fish
// through complete -C.
var shellDrivers = map[string]struct {
	args   []string
	driver string
	pkg    string // the Debian package
}{
	"bash": {[]string{"--norc", "-c"}, `source /usr/share/bash-completion/bash_completion || exit 3
source "$SCRIPT"
COMP_WORDS=(konnectivity-bundle "$W1" "$W2" ""); COMP_CWORD=3
COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; COMP_TYPE=9
__start_konnectivity-bundle konnectivity-bundle "" "$W2"
printf '%s\n' "${COMPREPLY[@]}"`, "bash-completion"},
	"zsh": {[]string{"-f", "-c"}, `compdef() { :; }
_describe() { local a; for a; do [[ $a == completions ]] && print -l -- "${completions[@]}"; done; return 0; }
_arguments() { :; }
compadd() { :; }
source "$SCRIPT"
words=(konnectivity-bundle "$W1" "$W2" ""); CURRENT=4
_konnectivity-bundle`, "zsh"},
	"fish": {[]string{"--no-config", "-c"}, `source $SCRIPT; complete -C "konnectivity-bundle $W1 $W2 "`, "fish"},
}

// TestCompletionScriptsDoNotEvaluate: pressing TAB after a word that would
// run a command, in real bash, zsh and fish, offers the overlays and
// creates no file; cobra's own script, run the same way, does create it, so
// the test is seen to catch an evaluating script.
func TestCompletionScriptsDoNotEvaluate(t *testing.T) {
	bin := tooltest.BuildSelf(t, t.TempDir())
	for _, shell := range shellNames() {
		d := shellDrivers[shell]
		sh := tooltest.System(t, shell, d.pkg)
		if shell == "bash" {
			if _, err := os.Stat("/usr/share/bash-completion/bash_completion"); err != nil {
				tooltest.Missing(t, "bash-completion is not installed (apt-get install bash-completion)")
			}
		}
		ours := scriptFile(t, bin, "completion", shell)
		cobras := cobraScript(t, shell)
		for _, words := range evalLines(shell) {
			t.Run(shell+"/"+words[0]+" "+words[1], func(t *testing.T) {
				offered, made := runShellCompletion(t, sh, d.args, d.driver, filepath.Dir(bin), ours, words)
				if made || !strings.Contains(offered, "ipv6") {
					t.Errorf("%s completing after %q: PWN created %v, want false and the overlays offered; offered:\n%s", shell, words, made, offered)
				}
				if _, made := runShellCompletion(t, sh, d.args, d.driver, filepath.Dir(bin), cobras, words); !made {
					t.Errorf("%s: cobra's own script did not run %q, so this test cannot see an evaluating script", shell, words)
				}
			})
		}
	}
}

// scriptFile writes what the binary prints for args into a file.
func scriptFile(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	file := filepath.Join(t.TempDir(), "script")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// cobraScript is the script cobra generates for shell, unfixed: the
// control that shows the shell drivers catch an eval.
func cobraScript(t *testing.T, shell string) string {
	t.Helper()
	var b strings.Builder
	root := New(Config{}).root(IO{Stdin: strings.NewReader(""), Stdout: &b, Stderr: &b}, nil)
	var err error
	switch shell {
	case "bash":
		err = root.GenBashCompletionV2(&b, true)
	case "zsh":
		err = root.GenZshCompletion(&b)
	case "fish":
		err = root.GenFishCompletion(&b, true)
	default:
		t.Fatalf("no cobra script for %s: add it here", shell)
	}
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "cobra-script")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// runShellCompletion runs driver in sh, in a fresh directory, with bin's
// directory first on PATH, and returns what it printed and whether a file
// named PWN appeared.
func runShellCompletion(t *testing.T, sh string, args []string, driver, binDir, script string, words [2]string) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(sh, append(args, driver)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+binDir+":"+os.Getenv("PATH"), "SCRIPT="+script, "W1="+words[0], "W2="+words[1], "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("%s: %v\n%s", sh, err, out)
	}
	_, statErr := os.Stat(filepath.Join(dir, "PWN"))
	return string(out), statErr == nil
}
