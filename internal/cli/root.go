package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// echoMax is how much of a word the user typed an error echoes back
// (an unknown command or flag), escaped.
const echoMax = 80

// root is the program as cobra runs it, writing to io; args are the words
// it is given (an unknown flag's hint quotes its value from them). cobra
// finds the command, reads its flags, and answers help in the project's
// layout (helpTemplate), a flag problem is a usage error
// (flagErrorFunc), and a command cobra does not find is answered with
// cobra's suggestions (unknownCommand).
func (c *CLI) root(io IO, args []string) *cobra.Command {
	var version bool
	root := &cobra.Command{
		Use:                        ProgramName,
		Args:                       cobra.ArbitraryArgs,
		SilenceErrors:              true,
		SilenceUsage:               true,
		SuggestionsMinimumDistance: 2,
		CompletionOptions:          cobra.CompletionOptions{DisableDefaultCmd: true},
		RunE:                       func(root *cobra.Command, words []string) error { return c.runRoot(root, io, version, words) },
	}
	c.tree = root
	root.SetIn(io.Stdin)
	root.SetOut(io.Stdout)
	root.SetErr(io.Stderr)
	root.Flags().BoolVar(&version, "version", false, "print the version, as the version command does")
	root.Flags().BoolP("help", "h", false, "show this help")
	width := helpWidthOf(io.Stdout)
	root.SetHelpTemplate(fmt.Sprintf(helpTemplate, width))
	root.SetUsageTemplate(usageTemplate)
	specs := map[*cobra.Command]*command{}
	for _, spec := range c.commands {
		cc := c.newCobraCommand(spec, io, width)
		specs[cc] = spec
		root.AddCommand(cc)
	}
	root.SetFlagErrorFunc(func(cc *cobra.Command, err error) error {
		if cc == root && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			// cobra found no command, then read the rest as the
			// program's own flags: the command is what is wrong.
			unknownCommand(io.Stderr, root, args[0])
			return &exitError{Code: exitUsage}
		}
		return flagError(err, c.flagHint(specs[cc], cc, args))
	})
	return root
}

// runRoot is the program run without a command it has: --version, the
// overview on stderr when nothing was asked, else an unknown command.
func (c *CLI) runRoot(root *cobra.Command, io IO, version bool, words []string) error {
	switch {
	case version && len(words) == 0:
		return printVersion(io, c.version, output.Text)
	case len(words) == 0:
		root.SetOut(io.Stderr)
		err := root.Help()
		root.SetOut(io.Stdout)
		if err != nil {
			return err
		}
		return &exitError{Code: exitUsage}
	}
	unknownCommand(io.Stderr, root, words[0])
	return &exitError{Code: exitUsage}
}

// unknownCommand answers a command name the CLI does not have with the
// commands cobra finds near it (cobra's SuggestionsFor: within
// SuggestionsMinimumDistance edits, or starting with it) and where the
// list is, not with the whole overview.
func unknownCommand(w io.Writer, root *cobra.Command, name string) {
	fmt.Fprintf(w, "%s: unknown command \"%s\"", ProgramName, textsafe.Short(name, echoMax))
	if near := root.SuggestionsFor(name); len(near) > 0 {
		quoted := make([]string, len(near))
		for i, n := range near {
			quoted[i] = fmt.Sprintf("%q", n)
		}
		fmt.Fprintf(w, "; did you mean %s?", strings.Join(quoted, " or "))
	}
	fmt.Fprintf(w, "\nRun '%s --help' for the commands.\n", ProgramName)
}
