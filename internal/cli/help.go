package cli

import (
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// helpWidthMax is how wide --help is at most, and where it wraps when
// stdout is no terminal (a pipe, a file, a test), so help read in a log is
// the same as help read in a pager.
const helpWidthMax = 100

// helpWidthMin is how narrow --help wraps at least: the width its prose is
// written to (TestHelpProseFitsTheNarrowestWidth). Narrower, the flags'
// column leaves too little room for their texts (pflag then stops wrapping
// them, and a 60-column terminal got 200-column lines), so a terminal under
// 80 columns folds the 80-column lines itself, as it does git's help.
const helpWidthMin = 80

// helpWidthOf is the width --help wraps to on w: the terminal's, kept
// between helpWidthMin and helpWidthMax.
func helpWidthOf(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return min(max(cols, helpWidthMin), helpWidthMax)
		}
	}
	return helpWidthMax
}

// exampleImage is the image reference the help's examples use.
const exampleImage = "quay.io/openshift/origin-apiserver-network-proxy:4.20"

// helpTemplate is every --help, cobra's template in this project's layout.
// The program's own: what it is, and its commands as cobra lists them
// (the help command aside). A command's, in the order a reader wants it:
// what it does and how it is called, its examples, its flags, then
// anything too long to come first and what it exits with (the
// annotations newCobraCommand sets). %d is the width the flags wrap to.
const helpTemplate = `{{if not .HasParent}}` + ProgramName + ` generates everything an OpenShift bootstrap node needs to run a
Konnectivity tunnel, puts it on the host, checks it and removes it again.

Usage:
  ` + ProgramName + ` COMMAND [flags] [args]

Commands:
{{range .Commands}}{{if .IsAvailableCommand}}  {{rpad .Name .NamePadding}}  {{.Short}}
{{end}}{{end}}
Run '` + ProgramName + ` COMMAND --help' for a command's flags; --version prints the version.
{{else}}{{.Short}}

Usage:
  {{.UseLine}}
{{with .Long}}
{{.}}
{{end}}{{with .Example}}
Examples:
{{.}}
{{end}}
Flags:
{{.Flags.FlagUsagesWrapped %d}}{{with index .Annotations "more"}}
{{.}}
{{end}}{{with index .Annotations "exits"}}
{{.}}
{{end}}{{with index .Annotations "after"}}{{.}}
{{end}}{{end}}`

// usageTemplate is what cobra prints where it would print a usage: where
// the help is.
const usageTemplate = `Run '{{.CommandPath}} --help' for usage.
`

// helpAnnotations are spec's help texts that cobra's command has no field
// for, as helpTemplate reads them, wrapped to width.
func helpAnnotations(spec *command, width int) map[string]string {
	a := map[string]string{"more": strings.TrimSpace(spec.More), "after": strings.TrimSpace(spec.After)}
	if len(spec.Exits) > 0 {
		a["exits"] = exitHelp(spec.Exits, width)
	}
	return a
}

// examplesText is spec's examples as --help indents them.
func examplesText(spec *command) string {
	if len(spec.Examples) == 0 {
		return ""
	}
	return "  " + strings.Join(spec.Examples, "\n  ")
}

// wrap breaks text into lines of at most width characters at spaces; a
// word longer than width gets a line of its own. The help text that
// tables generate (exit codes, wait's causes) is wrapped with it.
func wrap(text string, width int) string {
	var b strings.Builder
	line := 0
	for _, word := range strings.Fields(text) {
		switch {
		case line == 0:
		case line+1+len(word) > width:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += len(word)
	}
	return b.String()
}

// needs marks an example that runs only where something is at hand (the
// bootstrap node, root, a file of the user's): a shell comment saying so,
// which TestHelpExamplesRun reads as the reason it skips the example.
func needs(what string) string { return "  # needs " + what }

// keepHelpErrors makes a help that could not be written the program's
// error (c.helpErr, which Main exits 1 with): cobra's help function prints
// the bare error to stderr and returns nothing, so help to a full disk
// exited 0.
func (c *CLI) keepHelpErrors(root *cobra.Command) {
	show := root.HelpFunc()
	root.SetHelpFunc(func(cc *cobra.Command, args []string) {
		out, stderr := &firstWriteError{w: cc.OutOrStdout()}, cc.ErrOrStderr()
		cc.SetOut(out)
		cc.SetErr(io.Discard)
		show(cc, args)
		cc.SetOut(out.w)
		cc.SetErr(stderr)
		c.helpErr = out.err
	})
}

// firstWriteError is w, keeping the first error a write returned.
type firstWriteError struct {
	w   io.Writer
	err error
}

func (f *firstWriteError) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if f.err == nil {
		f.err = err
	}
	return n, err
}
