package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// command is one subcommand as its file declares it: what help says, and
// its traits (the arguments it takes, the exit codes it lists), which the
// suite-level tests read instead of keeping tables of their own. cobra
// runs it: newCobraCommand turns it into a *cobra.Command whose RunE is
// runCommand, so every command is parsed, bounded by its --timeout and
// exits alike.
type command struct {
	Name  string // as typed: "build"
	Args  string // argument synopsis: "[DIR]"
	Short string // one line for the command list
	Long  string // a few lines for --help, after the synopsis: what it does
	// Examples are one to three real invocations, --help's "Examples:";
	// TestHelpExamplesRun runs each as written.
	Examples []string
	// More follows the flags in --help, before the exit codes: a table
	// too long to stand before the flags (wait's causes).
	More string
	// Exits are the codes the command exits with, --help's "Exit codes:";
	// the commands exitTable covers take theirs from it (tableExits).
	Exits []exitLine
	// After follows the exit codes in --help.
	After string
	// Reads is what the command reads from outside, which the hostile
	// suites (hostile_test.go) feed a hostile peer of each kind.
	Reads reads
	// Writes is what the command changes besides its stdout and stderr.
	Writes writes
	// GeneratesCerts: a KonnectivityCerts config with spec.generate in
	// what the command builds writes its certificate directory, as
	// kustomize build does (build, fn, render). The other commands get no
	// certificate writer (runCommand), so a diagnostic never writes.
	GeneratesCerts bool
	// NoArgs says the command takes no arguments: cobra refuses any
	// (noArgs), with ArgsHint after the message when it says where what
	// was given goes instead.
	NoArgs   bool
	ArgsHint string
	// Sources is how many bundle arguments (an overlay name, a directory,
	// a file) the command takes; completion offers the overlay names there.
	Sources int
	// ArgValues are the words the command's one argument takes
	// (completion's shells); completion offers them.
	ArgValues []string
	// Overrun, when set, is how long past its --timeout the command's help
	// says it may run (wait: the poll under way finishes first), read from
	// its parsed flags; the whole-run deadline (deadline.go) adds it.
	Overrun func(fs *pflag.FlagSet) time.Duration
	// Options declares the command's flags on fs, bound to a new Options
	// of the command, which runCommand completes, validates and runs.
	Options func(fs *pflag.FlagSet) options
}

// reads is what a command reads from outside: an endpoint (the
// kube-apiserver through --kubeconfig, the rendered server's ports and
// socket under --root), an input stream (a FILE or - argument, standard
// input), or neither, and then what it reads instead.
type reads struct {
	Endpoint bool
	Input    bool
	// RenderedRoot: it reads a root render wrote (its state file, the
	// files it records, the server's socket), confined to the root.
	RenderedRoot bool
	// Unusable is the code the command exits with when the endpoint or
	// input never answers usably, one of its Exits.
	Unusable int
	// BadKubeconfig is the code for a kubeconfig it cannot use (with
	// --kubeconfig), one of its Exits.
	BadKubeconfig int
	// Instead says what a command that reads neither reads.
	Instead string
}

// writes is what a command changes besides its stdout and stderr.
type writes int

const (
	// writesNothing: stdout and stderr only (and --gather's directory,
	// each file atomically).
	writesNothing writes = iota
	// writesBeneathDir: files beneath a directory the user names (certs
	// --dir), under the root's lock: --root defaults to /.
	writesBeneathDir
	// writesHost: host paths the command picks itself under --root
	// (render, teardown): --root is required (rootPlaces).
	writesHost
)

// options is a command's Options, as kubectl's commands have them: cobra
// reads the flags into it, then runCommand calls each method in turn.
type options interface {
	// Complete fills in what the flags leave: the arguments, the
	// environment.
	Complete(io IO, args []string) error
	// Validate refuses a call that cannot run, before anything is read or
	// changed.
	Validate() error
	// Run does the command's work, within its --timeout.
	Run(io IO) error
}

// newCobraCommand is spec as cobra runs it, writing to io, its help
// wrapped to width. Flags keep the order the command declares them, then
// -h/--help; the run goes through runCommand.
func (c *CLI) newCobraCommand(spec *command, io IO, width int) *cobra.Command {
	cc := &cobra.Command{
		Use:               strings.TrimSpace(spec.Name + " [flags] " + spec.Args),
		Short:             spec.Short,
		Long:              strings.TrimSpace(spec.Long),
		Example:           examplesText(spec),
		Annotations:       helpAnnotations(spec, width),
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: argCompletion(spec),
		SilenceErrors:     true,
		SilenceUsage:      true,
	}
	if spec.NoArgs {
		cc.Args = noArgs(spec)
	}
	fs := cc.Flags()
	fs.SortFlags = false
	opts := spec.Options(fs)
	fs.BoolP("help", "h", false, "show this help")
	for name, values := range flagValues(fs) {
		if err := cc.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)); err != nil {
			panic(err) // the flag was just declared: a programming error
		}
	}
	cc.RunE = func(cc *cobra.Command, args []string) error {
		if code := c.runCommand(spec, cc.Flags(), opts, args, io); code != 0 {
			return &exitError{Code: code} // said already: Main only exits with it
		}
		return nil
	}
	return cc
}

// noArgs is the cobra.PositionalArgs of a command that takes none: any is
// a usage error, worded alike in every such command.
func noArgs(spec *command) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		return usagef("%s takes no arguments, got %s%s", spec.Name, textsafe.Short(fmt.Sprintf("%q", args), echoMax), spec.ArgsHint)
	}
}

// takesNothing is the Complete or Validate, or both, of an Options that
// has nothing to do there: cobra refused any argument (NoArgs), the flags
// checked their values, or the package the command runs refuses what it
// cannot use before it changes anything.
type takesNothing struct{}

// Complete has nothing to fill in.
func (takesNothing) Complete(IO, []string) error { return nil }

// Validate has nothing to refuse.
func (takesNothing) Validate() error { return nil }

// runCommand runs one command whose flags cobra has read into opts: the
// one path every command takes, which refuses an empty required flag,
// completes and validates opts, runs it within the command's --timeout
// (deadline.go) and turns its error into its exit code.
func (c *CLI) runCommand(spec *command, fs *pflag.FlagSet, opts options, args []string, io IO) int {
	stderr := io.Stderr
	if spec.GeneratesCerts {
		io.functions = served
	}
	err := checkRequired(fs)
	if err == nil {
		err = opts.Complete(io, args)
	}
	if err == nil {
		err = opts.Validate()
	}
	if err != nil {
		return exitCode(io.Stderr, spec.Name, err)
	}
	dl := armDeadline(fs, spec.Overrun)
	if dl != nil {
		defer dl.cancel()
		io.Stdout, io.Stderr, io.deadline = dl.out(io.Stdout), dl.out(io.Stderr), dl
	}
	err, abandoned := dl.run(func() error { return opts.Run(io) })
	if abandoned {
		// The command's writers drop from here on: this line is the last.
		err = &exitError{Code: exitTimedOut, Err: fmt.Errorf("%w before it finished; nothing more was read or changed", context.Cause(dl.ctx))}
		return exitCode(stderr, spec.Name, err)
	}
	return exitCode(io.Stderr, spec.Name, err)
}

// checkRequired refuses a required flag left empty, naming it.
func checkRequired(fs *pflag.FlagSet) error {
	var missing error
	fs.VisitAll(func(f *pflag.Flag) {
		if missing == nil && f.Annotations[requiredAnnotation] != nil && f.Value.String() == "" {
			missing = usagef("--%s is required", f.Name)
		}
	})
	return missing
}
