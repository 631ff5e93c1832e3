package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// echoMax is how much of a word the user typed an error echoes back
// (an unknown command or flag), escaped.
const echoMax = 80

// root is the program as cobra runs it, writing to io; args are the words
// it is given (an unknown flag's hint quotes its value from them). cobra
// finds the command, reads its flags, and answers help; the project's
// layout is printed by help (help.go), a flag problem is a usage error
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
		RunE: func(root *cobra.Command, words []string) error {
			switch {
			case version && len(words) == 0:
				return printVersion(io, c.version, "text")
			case len(words) == 0:
				c.printOverview(io.Stderr, root)
				return &exitError{Code: exitUsage}
			}
			unknownCommand(io.Stderr, root, words[0])
			return &exitError{Code: exitUsage}
		},
	}
	c.tree = root
	root.SetIn(io.Stdin)
	root.SetOut(io.Stdout)
	root.SetErr(io.Stderr)
	root.Flags().BoolVar(&version, "version", false, "print the version, as the version command does")
	root.Flags().BoolP("help", "h", false, "show this help")
	specs := map[*cobra.Command]*command{}
	for _, spec := range c.commands {
		cc := c.newCobraCommand(spec, io)
		specs[cc] = spec
		root.AddCommand(cc)
	}
	root.SetHelpFunc(func(cc *cobra.Command, _ []string) {
		if spec, ok := specs[cc]; ok {
			printCommandHelp(cc.OutOrStdout(), spec, cc.Flags(), helpWidthOf(io.Stdout))
			return
		}
		c.printOverview(cc.OutOrStdout(), root)
	})
	root.SetFlagErrorFunc(func(cc *cobra.Command, err error) error {
		return flagError(err, c.flagHint(specs[cc], cc, args))
	})
	return root
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
