package cli

import "github.com/spf13/pflag"

// newFlagSet is a command's flags on their own, as the tests read them.
func newFlagSet(c *command) *pflag.FlagSet {
	fs := pflag.NewFlagSet(ProgramName+" "+c.Name, pflag.ContinueOnError)
	fs.SortFlags = false
	return fs
}
