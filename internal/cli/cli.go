// Package cli holds the konnectivity-bundle commands and their dispatcher.
// Each command lives in its own file with a constructor (newBuildCommand,
// ...); New lists them all, so every command is in one list and a test
// builds the whole program without package state.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// ProgramName is how the binary calls itself in help and errors.
const ProgramName = "konnectivity-bundle"

// IO is what a command may touch of the outside world, so tests can run any
// command in-process.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string

	// deadline is the command's --timeout, set by runCommand (nil when
	// the command takes none).
	deadline *deadline
}

// context is the command's context: it ends when the command's --timeout
// passes (with a *timedOutError as its cause), or never for a command
// without one. Every read a command makes takes it.
func (io IO) context() context.Context {
	if io.deadline == nil {
		return context.Background()
	}
	return io.deadline.ctx
}

// holdHost marks a host change under way, which --timeout never abandons
// (see deadline.hold).
func (io IO) holdHost() (release func(), err error) { return io.deadline.hold() }

// StdIO is the real process IO.
func StdIO() IO {
	return IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

// command is one subcommand.
type command struct {
	Name  string // as typed: "build"
	Args  string // argument synopsis: "[DIR]"
	Short string // one line for the command list
	Long  string // a few lines for --help, after the synopsis: what it does
	// Examples are one to three real invocations, --help's "Examples:".
	Examples []string
	// More follows the flags in --help: the exit codes, and any table too
	// long to stand before the flags.
	More string
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
	// Setup registers the command's flags and returns the function that runs it.
	Setup func(fs *pflag.FlagSet) func(io IO, args []string) error
}

// exitError makes a command exit with a specific code. A nil Err exits
// silently (the command already printed what it had to say).
type exitError struct {
	Code int
	Err  error
}

func (e *exitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *exitError) Unwrap() error { return e.Err }

// usageError marks a mistake in how the command was called (exit code 2).
type usageError struct{ Msg string }

func (e *usageError) Error() string { return e.Msg }

// usagef builds a usageError.
func usagef(format string, args ...any) error {
	return &usageError{Msg: fmt.Sprintf(format, args...)}
}

// Config is what the program takes from outside this package: the values
// cmd/konnectivity-bundle supplies and tests replace.
type Config struct {
	// Version is the version stamped at link time; "" falls back to what
	// the toolchain recorded (see versionFrom).
	Version string
	// RouteSource is detect-ip's route lookup; nil is the kernel's.
	RouteSource bootstrapip.RouteSource
}

// CLI is the program: its commands, in the order help lists them.
type CLI struct {
	commands []*command
}

// New builds the program with every command. The list is the help order
// (alphabetical): a new command is added here and nowhere else.
func New(cfg Config) *CLI {
	routes := cfg.RouteSource
	if routes == nil {
		routes = bootstrapip.KernelRouteSource
	}
	c := &CLI{}
	c.commands = listCommands(
		newBuildCommand(),
		newCertsCommand(),
		newCheckCommand(),
		newCompletionCommand(c),
		newDetectIPCommand(routes),
		newDiffCommand(),
		newFnCommand(),
		newPortsCommand(),
		newProbeCommand(),
		newProxyVersionCommand(),
		newRenderCommand(),
		newStatusCommand(),
		newTeardownCommand(),
		newVersionCommand(cfg.Version),
		newWaitCommand(),
	)
	return c
}

// listCommands refuses a command listed twice.
func listCommands(cmds ...*command) []*command {
	seen := map[string]bool{}
	for _, c := range cmds {
		if seen[c.Name] {
			panic("cli: command listed twice: " + c.Name)
		}
		seen[c.Name] = true
	}
	return cmds
}

// lookup finds a command by the name the user typed.
func (c *CLI) lookup(name string) (*command, bool) {
	for _, cmd := range c.commands {
		if cmd.Name == name {
			return cmd, true
		}
	}
	return nil, false
}

// Main runs the program and returns its exit code.
func (c *CLI) Main(argv []string, io IO) int {
	if handled, code := legacyPlugin(filepath.Base(argv[0]), argv[1:], io); handled {
		return code
	}
	args := argv[1:]
	if len(args) == 0 {
		c.printOverview(io.Stderr)
		return 2
	}
	switch args[0] {
	case cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		return c.complete(args, io)
	case "-h", "--help", "help":
		if len(args) > 1 && args[0] == "help" {
			if cmd, ok := c.lookup(args[1]); ok {
				fs := newFlagSet(cmd)
				cmd.Setup(fs)
				printCommandHelp(io.Stdout, cmd, fs)
				return 0
			}
		}
		c.printOverview(io.Stdout)
		return 0
	}
	cmd, ok := c.lookup(args[0])
	if !ok {
		c.unknownCommand(io.Stderr, args[0])
		return exitUsage
	}
	return c.runCommand(cmd, args[1:], io)
}

func newFlagSet(c *command) *pflag.FlagSet {
	fs := pflag.NewFlagSet(ProgramName+" "+c.Name, pflag.ContinueOnError)
	fs.SortFlags = false
	return fs
}

func (c *CLI) runCommand(cmd *command, args []string, io IO) int {
	stderr := io.Stderr
	fs := newFlagSet(cmd)
	run := cmd.Setup(fs)
	help := fs.BoolP("help", "h", false, "show this help")
	fs.SetOutput(io.Stderr)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		return exitCode(io.Stderr, cmd, flagError(err, c.flagHint(cmd, fs, args)))
	}
	if *help {
		printCommandHelp(io.Stdout, cmd, fs)
		return 0
	}
	if err := checkRequired(fs); err != nil {
		return exitCode(io.Stderr, cmd, err)
	}
	dl := armDeadline(fs, cmd.Overrun)
	if dl != nil {
		defer dl.cancel()
		io.Stdout, io.Stderr, io.deadline = dl.out(io.Stdout), dl.out(io.Stderr), dl
	}
	err, abandoned := dl.run(func() error { return run(io, fs.Args()) })
	if abandoned {
		// The command's writers drop from here on: this line is the last.
		err = &exitError{Code: exitTimedOut, Err: fmt.Errorf("%w before it finished; nothing more was read or changed", context.Cause(dl.ctx))}
		return exitCode(stderr, cmd, err)
	}
	return exitCode(io.Stderr, cmd, err)
}

func exitCode(stderr io.Writer, c *command, err error) int {
	if err == nil {
		return 0
	}
	var exit *exitError
	if errors.As(err, &exit) {
		if exit.Err != nil {
			fmt.Fprintf(stderr, "%s %s: %s\n", ProgramName, c.Name, errorText(exit.Err))
		}
		return exit.Code
	}
	var usage *usageError
	if errors.As(err, &usage) || kustbuild.IsFlagError(err) { // a flag a build needed was left out
		fmt.Fprintf(stderr, "%s %s: %s\nRun '%s %s --help' for usage.\n", ProgramName, c.Name, errorText(err), ProgramName, c.Name)
		return exitUsage
	}
	fmt.Fprintf(stderr, "%s %s: %s\n", ProgramName, c.Name, errorText(err))
	return exitForError(err)
}

// errorText is an error as the terminal is shown it: errors quote paths,
// names and values from bundles and hosts, so each line is escaped
// (internal/report/textsafe); the line breaks between an error's own lines stay.
func errorText(err error) string {
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		lines[i] = textsafe.Escape(l)
	}
	return strings.Join(lines, "\n")
}

func (c *CLI) printOverview(w io.Writer) {
	fmt.Fprintf(w, "%s generates everything an OpenShift bootstrap node needs to run a\n", ProgramName)
	fmt.Fprintf(w, "Konnectivity tunnel, puts it on the host, checks it and removes it again.\n\n")
	fmt.Fprintf(w, "Usage:\n  %s COMMAND [flags] [args]\n\nCommands:\n", ProgramName)
	width := 0
	for _, cmd := range c.commands {
		width = max(width, len(cmd.Name))
	}
	for _, cmd := range c.commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, cmd.Name, cmd.Short)
	}
	fmt.Fprintf(w, "\nRun '%s COMMAND --help' for a command's flags.\n", ProgramName)
}

// exampleImage is the image reference the help's examples use.
const exampleImage = "quay.io/openshift/origin-apiserver-network-proxy:4.20"

// printCommandHelp writes a command's --help in the order a reader wants
// it: what it does and how it is called, then its flags, then what it
// exits with and anything too long to come first.
func printCommandHelp(w io.Writer, c *command, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "%s\n\nUsage:\n  %s\n", c.Short, strings.TrimSpace(fmt.Sprintf("%s %s [flags] %s", ProgramName, c.Name, c.Args)))
	if c.Long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.Long))
	}
	if len(c.Examples) > 0 {
		fmt.Fprintf(w, "\nExamples:\n  %s\n", strings.Join(c.Examples, "\n  "))
	}
	fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
	if c.More != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.More))
	}
}
