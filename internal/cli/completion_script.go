package cli

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// Cobra's generated scripts build the request to this binary as one string
// of the words on the command line and eval it (bash, zsh, fish), so a
// word such as $(touch PWN), `touch PWN` or --root=$(touch PWN) ran when
// TAB was pressed. The scripts shipped are cobra's with those lines
// replaced: the words are handed to the binary as arguments, never
// evaluated. Each replacement must match exactly once, so a cobra release
// that rewords a line fails the build of the script (and
// TestCompletionScriptsDoNotEvaluate) instead of shipping the eval again.

// scriptFix replaces one line of a generated script; old must occur once.
type scriptFix struct{ old, new string }

// evalComment is cobra's comment above its eval, which no longer holds.
const (
	evalComment   = "    # Use eval to handle any environment variables and such\n"
	noEvalComment = "    # The words are passed as they are: never evaluated (konnectivity-bundle)\n"
)

// bashFixes: the request is the words array itself, whose last word is the
// empty one cobra adds after a finished word.
var bashFixes = []scriptFix{
	{evalComment, noEvalComment},
	{`    out=$(eval "${requestComp}" 2>/dev/null)`, `    out=$("${words[0]}" {request} "${args[@]}" 2>/dev/null)`},
}

// zshFixes: the same for zsh (the words kept as zsh split them, not split
// again at spaces, end with the empty word after a finished one), and the flag prefix (taken from the word
// being completed) quoted before _describe's eval sees it.
var zshFixes = []scriptFix{
	{evalComment, noEvalComment},
	{`    words=("${=words[1,CURRENT]}")`, `    words=("${(@)words[1,CURRENT]}")`},
	{`        flagPrefix="-P ${BASH_REMATCH}"`, `        flagPrefix="-P ${(q)BASH_REMATCH}"`},
	{`    out=$(eval ${requestComp} 2>/dev/null)`, `    local -a requestArgs
    requestArgs=("${(@)words[2,-1]}")
    out=$("${words[1]}" {request} "${(@)requestArgs}" 2>/dev/null)`},
}

// fishFixes: the tokens fish already split are passed as they are, the
// last one (possibly empty) quoted so it stays one argument.
var fishFixes = []scriptFix{
	{`    set -l lastArg (string escape -- (commandline -ct))`, `    set -l lastArg (commandline -ct)`},
	{`    set -l results (eval $requestComp 2> /dev/null)`, `    set -l results (env {env}=0 $args[1] {request} $args[2..-1] "$lastArg" 2> /dev/null)`},
}

// fishActiveHelp finds the environment variable cobra's fish script sets
// to turn active help off, to keep setting it without the eval.
var fishActiveHelp = regexp.MustCompile(`set -l requestComp "([A-Z0-9_]+)=0 `)

// noEval writes the script gen produces with fixes applied. {request} in a
// fix is the hidden request the scripts send (cobra.ShellCompRequestCmd:
// every script here is generated with descriptions), {env} the active help
// variable of the fish script.
func noEval(w io.Writer, fixes []scriptFix, gen func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := gen(&buf); err != nil {
		return err
	}
	script := buf.String()
	env := ""
	if m := fishActiveHelp.FindStringSubmatch(script); m != nil {
		env = m[1]
	}
	fill := strings.NewReplacer("{request}", cobra.ShellCompRequestCmd, "{env}", env)
	for _, f := range fixes {
		if n := strings.Count(script, f.old); n != 1 {
			return fmt.Errorf("completion script: cobra's line %q occurs %d times, not once; the fix that stops it evaluating the command line no longer applies (update internal/cli/completion_script.go)", f.old, n)
		}
		script = strings.Replace(script, f.old, fill.Replace(f.new), 1)
	}
	if strings.Contains(script, "{env}") || env == "" && strings.Contains(script, "env =0") {
		return fmt.Errorf("completion script: the fish script's active help variable was not found (update internal/cli/completion_script.go)")
	}
	_, err := io.WriteString(w, script)
	return err
}
