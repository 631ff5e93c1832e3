package cli

import (
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Shell completion is cobra's, over the tree Main runs (root.go): cobra
// answers the scripts' hidden __complete requests itself, so a command,
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

// completionNeeds is what each shell needs besides the script, as
// kubectl's completion help says it.
const completionNeeds = `What each shell needs:
  bash  bash 4.1 or later and the bash-completion package (the script calls
        its _get_comp_words_by_ref; without it TAB says "command not found"):
        install bash-completion (dnf, apt or brew), then source the script
        from ~/.bashrc.
  zsh   compinit loaded (autoload -U compinit; compinit in ~/.zshrc) and the
        script in a directory of $fpath, named _` + ProgramName + `.
  fish  fish 3 or later; the script in ~/.config/fish/completions/.`

// NewCmdCompletion is completion: cobra's shell scripts, made safe.
func NewCmdCompletion(c *CLI) *command {
	return &command{
		Name:  "completion",
		Args:  strings.Join(shellNames(), "|"),
		Short: "Print the shell completion script for " + strings.Join(shellNames(), ", "),
		Long: `Prints a script that completes commands, flags, overlay names and the
values of flags such as --output and --proxy-version. The script asks the
binary itself, so it stays right when the binary changes.`,
		Examples: []string{
			"source <(" + ProgramName + " completion bash)",
			ProgramName + ` completion zsh > "${fpath[1]}/_` + ProgramName + `"` + needs("zsh"),
			ProgramName + " completion fish > ~/.config/fish/completions/" + ProgramName + ".fish" + needs("fish"),
		},
		More:      completionNeeds,
		Reads:     reads{Instead: "prints a completion script for the shell it names; the script runs this binary later, which reads nothing at completion beyond the overlay names it embeds"},
		Exits:     []exitLine{{exitSuccess, "printed"}, usageExit},
		ArgValues: shellNames(),
		Options:   func(*pflag.FlagSet) options { return &completionOptions{cli: c} },
	}
}

// completionOptions are completion's: the shell, and the program whose
// tree the script completes.
type completionOptions struct {
	takesNothing
	cli   *CLI
	shell int // index in shells
}

// Complete takes the one shell.
func (o *completionOptions) Complete(_ IO, args []string) error {
	if len(args) != 1 {
		return usagef("completion takes one shell (%s), got %d arguments", strings.Join(shellNames(), ", "), len(args))
	}
	for i, s := range shells {
		if s.name == args[0] {
			o.shell = i
			return nil
		}
	}
	return usagef("unknown shell \"%s\": use one of %s", textsafe.Short(args[0], echoMax), strings.Join(shellNames(), ", "))
}

// Run writes the shell's script, generated from the tree Main runs.
func (o *completionOptions) Run(io IO) error { return shells[o.shell].gen(o.cli.tree, io.Stdout) }

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
