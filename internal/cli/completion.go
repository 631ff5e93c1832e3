package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Shell completion comes from cobra, as kubectl's does, but the commands
// stay this package's: the dispatcher owns parsing, help and exit codes.
// Completion builds a cobra tree from the command list each time it is
// asked (each cobra command gets the command's own flag set), so a command,
// flag or value added to the CLI completes without being listed again.

// shells are the shells completion writes a script for: cobra's scripts
// with the lines that evaluated the command line replaced
// (completion_script.go).
var shells = []struct {
	name string
	gen  func(root *cobra.Command, w io.Writer) error
}{
	{"bash", func(root *cobra.Command, w io.Writer) error {
		return noEval(w, bashFixes, func(w io.Writer) error { return root.GenBashCompletionV2(w, true) })
	}},
	{"zsh", func(root *cobra.Command, w io.Writer) error {
		return noEval(w, zshFixes, root.GenZshCompletion)
	}},
	{"fish", func(root *cobra.Command, w io.Writer) error {
		return noEval(w, fishFixes, func(w io.Writer) error { return root.GenFishCompletion(w, true) })
	}},
}

func shellNames() []string {
	names := make([]string, len(shells))
	for i, s := range shells {
		names[i] = s.name
	}
	return names
}

func newCompletionCommand(c *CLI) *command {
	return &command{
		Name:  "completion",
		Args:  strings.Join(shellNames(), "|"),
		Short: "Print the shell completion script for " + strings.Join(shellNames(), ", "),
		Long: `Prints a script that completes commands, flags, overlay names and the
values of flags such as --output and --proxy-version. The script asks the
binary itself, so it stays right when the binary changes.`,
		Examples: []string{
			"source <(" + ProgramName + " completion bash)",
			ProgramName + ` completion zsh > "${fpath[1]}/_` + ProgramName + `"`,
			ProgramName + " completion fish > ~/.config/fish/completions/" + ProgramName + ".fish",
		},
		More:      "Exit status: 0 printed; 2 usage error.",
		ArgValues: shellNames(),
		Setup: func(*pflag.FlagSet) func(IO, []string) error {
			return func(io IO, args []string) error {
				if len(args) != 1 {
					return usagef("completion takes one shell (%s), got %d arguments", strings.Join(shellNames(), ", "), len(args))
				}
				for _, s := range shells {
					if s.name == args[0] {
						return s.gen(c.cobraTree(io), io.Stdout)
					}
				}
				return usagef("unknown shell %q: use one of %s", args[0], strings.Join(shellNames(), ", "))
			}
		},
	}
}

// complete answers cobra's hidden __complete and __completeNoDesc
// requests, which the completion scripts send; what cobra says on stderr
// is escaped and cut (withCobraStderr).
func (c *CLI) complete(args []string, io IO) int {
	root := c.cobraTree(io)
	root.SetArgs(args)
	var err error
	withCobraStderr(io.Stderr, func() { err = root.Execute() })
	if err != nil {
		fmt.Fprintf(io.Stderr, "%s: %s\n", ProgramName, textsafe.Short(err.Error(), cobraMessageMax))
		return exitFailure
	}
	return exitSuccess
}

// cobraTree is the command list as cobra commands, only ever used to
// complete: running one does nothing.
func (c *CLI) cobraTree(io IO) *cobra.Command {
	root := &cobra.Command{
		Use:               ProgramName,
		SilenceErrors:     true,
		SilenceUsage:      true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.SetIn(io.Stdin)
	root.SetOut(io.Stdout)
	root.SetErr(io.Stderr)
	for _, cmd := range c.commands {
		root.AddCommand(cobraCommand(cmd))
	}
	return root
}

// cobraCommand is one command with its own flag set, the values each flag
// lists (valuesAnnotation) and its arguments' completion. Cobra keeps flag
// completions in a process-wide table; a tree is built once per process in
// practice, so the table's growth in tests does not matter.
func cobraCommand(cmd *command) *cobra.Command {
	fs := newFlagSet(cmd)
	cmd.Setup(fs)
	cc := &cobra.Command{
		Use:               cmd.Name,
		Short:             cmd.Short,
		Run:               func(*cobra.Command, []string) {},
		ValidArgsFunction: argCompletion(cmd),
	}
	cc.Flags().AddFlagSet(fs)
	for name, values := range flagValues(fs) {
		if err := cc.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)); err != nil {
			panic(err) // the flag is in the set just added: a programming error
		}
	}
	return cc
}

// flagValues are the values each flag of fs lists (markValues), by name.
func flagValues(fs *pflag.FlagSet) map[string][]string {
	out := map[string][]string{}
	fs.VisitAll(func(f *pflag.Flag) {
		if values := f.Annotations[valuesAnnotation]; values != nil {
			out[f.Name] = values
		}
	})
	return out
}

// argCompletion offers the overlay names (and the shell's files) for each
// bundle argument a command takes, its ArgValues for its argument, and
// nothing else.
func argCompletion(cmd *command) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		switch {
		case len(args) < cmd.Sources:
			return kustbuild.Overlays(), cobra.ShellCompDirectiveDefault
		case len(args) == 0 && cmd.ArgValues != nil:
			return cmd.ArgValues, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}
