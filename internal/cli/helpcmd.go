package cli

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// newHelpCommand is `help [COMMAND]`, in place of cobra's own: cobra's
// printed its own layout for `help help`, and the program's overview with
// exit 0 for a topic it does not have. This one is a command like the
// others (same layout, same path through runCommand), which the overview
// does not list, as cobra's is not: `COMMAND --help` is what it names.
func (c *CLI) newHelpCommand() *command {
	names := []string{"help"}
	for _, spec := range c.commands {
		names = append(names, spec.Name)
	}
	return &command{
		Name:      "help",
		Args:      "[COMMAND]",
		Short:     "Print the help of a command, as COMMAND --help does",
		Long:      "Prints the help of COMMAND, as " + ProgramName + " COMMAND --help does;\nwithout one, the program's overview and its commands.",
		Examples:  []string{ProgramName + " help render"},
		Reads:     reads{Instead: "prints help"},
		Exits:     []exitLine{{exitSuccess, "printed"}, {exitFailure, "the help could not be written"}, usageExit},
		ArgValues: names,
		Options:   func(*pflag.FlagSet) options { return &helpOptions{cli: c} },
	}
}

// helpOptions are help's: the command whose help it prints (nil: the
// program's).
type helpOptions struct {
	takesNothing
	cli   *CLI
	topic *cobra.Command
}

// Complete finds the one COMMAND among the program's commands, help
// itself included; a name it does not have is answered as an unknown
// command is, with the names near it.
func (o *helpOptions) Complete(io IO, args []string) error {
	switch len(args) {
	case 0:
		o.topic = o.cli.tree
		return nil
	case 1:
	default:
		return usagef("help takes one COMMAND, got %d", len(args))
	}
	for _, cc := range o.cli.tree.Commands() {
		if cc.Name() == args[0] {
			o.topic = cc
			return nil
		}
	}
	unknownCommand(io.Stderr, o.cli.tree, args[0])
	return &exitError{Code: exitUsage}
}

// Run prints the topic's help on stdout.
func (o *helpOptions) Run(io IO) error {
	o.topic.SetOut(io.Stdout)
	return o.topic.Help()
}
