package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// helpWidthMax is how wide --help is at most, and where it wraps when
// stdout is no terminal (a pipe, a file, a test), so help read in a log is
// the same as help read in a pager.
const helpWidthMax = 100

// helpWidthOf is the width --help wraps to on w: the terminal's, up to
// helpWidthMax.
func helpWidthOf(w io.Writer) int {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 40 {
			return min(cols, helpWidthMax)
		}
	}
	return helpWidthMax
}

// printOverview is the program's own --help: what it is, and its
// commands as cobra lists them (the help command aside).
func (c *CLI) printOverview(w io.Writer, root *cobra.Command) {
	fmt.Fprintf(w, "%s generates everything an OpenShift bootstrap node needs to run a\n", ProgramName)
	fmt.Fprintf(w, "Konnectivity tunnel, puts it on the host, checks it and removes it again.\n\n")
	fmt.Fprintf(w, "Usage:\n  %s COMMAND [flags] [args]\n\nCommands:\n", ProgramName)
	var cmds []*cobra.Command
	width := 0
	for _, cmd := range root.Commands() {
		if cmd.IsAvailableCommand() {
			cmds = append(cmds, cmd)
			width = max(width, len(cmd.Name()))
		}
	}
	for _, cmd := range cmds {
		fmt.Fprintf(w, "  %-*s  %s\n", width, cmd.Name(), cmd.Short)
	}
	fmt.Fprintf(w, "\nRun '%s COMMAND --help' for a command's flags, '%s --version' for the version.\n", ProgramName, ProgramName)
}

// exampleImage is the image reference the help's examples use.
const exampleImage = "quay.io/openshift/origin-apiserver-network-proxy:4.20"

// printCommandHelp writes a command's --help in the order a reader wants
// it: what it does and how it is called, then its flags, then what it
// exits with and anything too long to come first; wrapped to width.
func printCommandHelp(w io.Writer, c *command, fs *pflag.FlagSet, width int) {
	fmt.Fprintf(w, "%s\n\nUsage:\n  %s\n", c.Short, strings.TrimSpace(fmt.Sprintf("%s %s [flags] %s", ProgramName, c.Name, c.Args)))
	if c.Long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.Long))
	}
	if len(c.Examples) > 0 {
		fmt.Fprintf(w, "\nExamples:\n  %s\n", strings.Join(c.Examples, "\n  "))
	}
	fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsagesWrapped(width))
	if c.More != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.More))
	}
	if len(c.Exits) > 0 {
		fmt.Fprintf(w, "\n%s\n", exitHelp(c.Exits, width))
	}
	if c.After != "" {
		fmt.Fprintf(w, "%s\n", strings.TrimSpace(c.After))
	}
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
