package cli

import (
	"fmt"
	"io"
	"slices"
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
	c.keepHelpErrors(root)
	specs := map[*cobra.Command]*command{}
	for _, spec := range c.commands {
		cc := c.newCobraCommand(spec, io, width)
		specs[cc] = spec
		root.AddCommand(cc)
	}
	help := c.newHelpCommand()
	hc := c.newCobraCommand(help, io, width)
	specs[hc] = help
	root.SetHelpCommand(hc)
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
// commands cobra finds near it (cobra's SuggestionsFor on root: within
// SuggestionsMinimumDistance edits, or starting with it; none for an
// empty name or a nil root) and where the list is, not with the whole
// overview.
func unknownCommand(w io.Writer, root *cobra.Command, name string) {
	fmt.Fprintf(w, "%s: unknown command \"%s\"", ProgramName, textsafe.Short(name, echoMax))
	// Every name starts with the empty word: it suggests none of them.
	if name == "" || root == nil {
		fmt.Fprintf(w, "\nRun '%s --help' for the commands.\n", ProgramName)
		return
	}
	near := root.SuggestionsFor(name)
	if len(name) < 3 { // two edits turn a word this short into any short name ("b" into "fn")
		near = slices.DeleteFunc(near, func(n string) bool { return !strings.HasPrefix(n, name) })
	}
	if len(near) > 0 {
		quoted := make([]string, len(near))
		for i, n := range near {
			quoted[i] = fmt.Sprintf("%q", n)
		}
		fmt.Fprintf(w, "; did you mean %s?", strings.Join(quoted, " or "))
	}
	fmt.Fprintf(w, "\nRun '%s --help' for the commands.\n", ProgramName)
}

// rootFlags are the flags the program takes before a command: the only
// words cobra reads there as the program's own.
var rootFlags = map[string]bool{"-h": true, "--help": true, "--version": true}

// commandFirst refuses what cobra would misread before the command word.
// cobra looks for the command past any flag-like word and guesses which
// of them take a value, so `--bootstrap-ip X build` ran build while
// `--verbose build` said "unknown flag", and after `--` or an empty word
// it found the command anyway. Here a flag goes after its command, as
// every --help's synopsis shows, and an empty word is no command. Nothing
// is said when no word names a command: cobra's answers (the overview, a
// flag's hint) are the right ones then.
func commandFirst(w io.Writer, args []string) (code int, refused bool) {
	for i, a := range args {
		if a == "" {
			unknownCommand(w, nil, a)
			return exitUsage, true
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		for _, before := range args[:i] {
			if !rootFlags[before] {
				return exitCode(w, "", usagef("%s comes before the command: give the command first, then its flags (%s COMMAND [flags] [args])",
					textsafe.Short(before, echoMax), ProgramName)), true
			}
		}
		return 0, false
	}
	return 0, false
}
