// Package cli holds the konnectivity-bundle commands and their dispatcher.
// Each command lives in its own file and registers itself from init, so a new
// command never touches this file.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/pflag"
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
}

// StdIO is the real process IO.
func StdIO() IO {
	return IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

// Command is one subcommand.
type Command struct {
	Name  string // as typed: "build"
	Args  string // argument synopsis: "[DIR]"
	Short string // one line for the command list
	Long  string // paragraphs for --help, after the synopsis
	// Setup registers the command's flags and returns the function that runs it.
	Setup func(fs *pflag.FlagSet) func(io IO, args []string) error
}

// ExitError makes a command exit with a specific code. A nil Err exits
// silently (the command already printed what it had to say).
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// UsageError marks a mistake in how the command was called (exit code 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef builds a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

var commands = map[string]*Command{}

func register(c *Command) {
	if _, dup := commands[c.Name]; dup {
		panic("cli: command registered twice: " + c.Name)
	}
	commands[c.Name] = c
}

// LegacyPluginHook lets the legacy kustomize exec plugin mode take over when
// the binary is invoked under a plugin kind's name (set by the legacy plugin file).
var LegacyPluginHook func(argv0 string, args []string, io IO) (handled bool, code int)

// Main runs the program and returns its exit code.
func Main(argv []string, io IO) int {
	if LegacyPluginHook != nil {
		if handled, code := LegacyPluginHook(filepath.Base(argv[0]), argv[1:], io); handled {
			return code
		}
	}
	args := argv[1:]
	if len(args) == 0 {
		printOverview(io.Stderr)
		return 2
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) > 1 && args[0] == "help" {
			if c, ok := commands[args[1]]; ok {
				fs := newFlagSet(c)
				c.Setup(fs)
				printCommandHelp(io.Stdout, c, fs)
				return 0
			}
		}
		printOverview(io.Stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(io.Stderr, "%s: unknown command %q\n\n", ProgramName, args[0])
		printOverview(io.Stderr)
		return 2
	}
	return runCommand(c, args[1:], io)
}

func newFlagSet(c *Command) *pflag.FlagSet {
	fs := pflag.NewFlagSet(ProgramName+" "+c.Name, pflag.ContinueOnError)
	fs.SortFlags = false
	return fs
}

func runCommand(c *Command, args []string, io IO) int {
	fs := newFlagSet(c)
	run := c.Setup(fs)
	help := fs.BoolP("help", "h", false, "show this help")
	fs.SetOutput(io.Stderr)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(io.Stderr, "%s %s: %v\nRun '%s %s --help' for usage.\n", ProgramName, c.Name, err, ProgramName, c.Name)
		return 2
	}
	if *help {
		printCommandHelp(io.Stdout, c, fs)
		return 0
	}
	err := run(io, fs.Args())
	return exitCode(io.Stderr, c, err)
}

func exitCode(stderr io.Writer, c *Command, err error) int {
	if err == nil {
		return 0
	}
	var exit *ExitError
	if errors.As(err, &exit) {
		if exit.Err != nil {
			fmt.Fprintf(stderr, "%s %s: %v\n", ProgramName, c.Name, exit.Err)
		}
		return exit.Code
	}
	var usage *UsageError
	if errors.As(err, &usage) {
		fmt.Fprintf(stderr, "%s %s: %v\nRun '%s %s --help' for usage.\n", ProgramName, c.Name, err, ProgramName, c.Name)
		return 2
	}
	fmt.Fprintf(stderr, "%s %s: %v\n", ProgramName, c.Name, err)
	return 1
}

func printOverview(w io.Writer) {
	fmt.Fprintf(w, "%s generates everything an OpenShift bootstrap node needs to run a\n", ProgramName)
	fmt.Fprintf(w, "Konnectivity tunnel, puts it on the host, checks it and removes it again.\n\n")
	fmt.Fprintf(w, "Usage:\n  %s COMMAND [flags] [args]\n\nCommands:\n", ProgramName)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].Short)
	}
	fmt.Fprintf(w, "\nRun '%s COMMAND --help' for a command's flags.\n", ProgramName)
}

func printCommandHelp(w io.Writer, c *Command, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "%s\n\nUsage:\n  %s\n", c.Short, strings.TrimSpace(fmt.Sprintf("%s %s [flags] %s", ProgramName, c.Name, c.Args)))
	if c.Long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.Long))
	}
	fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
}
