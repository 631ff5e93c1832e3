// Package cli holds the konnectivity-bundle commands, run by cobra. Each
// command lives in its own file: a constructor (NewCmdBuild, ...) that
// declares its help and traits, and its Options with Complete, Validate
// and Run; New lists them all, so every command is in one list and a test
// builds the whole program without package state.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/dispatch"
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
	// functions are the KRM functions the command's builds run: served
	// when it declares GeneratesCerts, else the same kinds without a
	// certificate writer (set by runCommand).
	functions dispatch.Functions
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
	version  string // Config.Version
	// tree is the cobra tree Main runs (root.go), which completion's
	// scripts are generated from.
	tree *cobra.Command
	// helpErr is why the help printed last could not be written (help.go).
	helpErr error
}

// New builds the program with every command. The list is the help order
// (alphabetical): a new command is added here and nowhere else.
func New(cfg Config) *CLI {
	routes := cfg.RouteSource
	if routes == nil {
		routes = bootstrapip.KernelRouteSource
	}
	c := &CLI{version: cfg.Version}
	c.commands = listCommands(
		NewCmdBuild(),
		NewCmdCerts(),
		NewCmdCheck(),
		NewCmdCompletion(c),
		NewCmdDetectIP(routes),
		NewCmdDiff(),
		NewCmdFn(),
		NewCmdPorts(),
		NewCmdProbe(),
		NewCmdProxyVersion(),
		NewCmdRender(),
		NewCmdStatus(),
		NewCmdTeardown(),
		NewCmdVersion(cfg.Version),
		NewCmdWait(),
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

// Main runs the program and returns its exit code. cobra reads the
// command line: each command is a cobra command (newCobraCommand), the
// root answers an unknown command and --version (root.go), and
// completion's hidden requests are cobra's own, over the same tree.
func (c *CLI) Main(argv []string, io IO) int {
	if handled, code := legacyPlugin(filepath.Base(argv[0]), argv[1:], io); handled {
		return code
	}
	args := argv[1:]
	root := c.root(io, args)
	root.SetArgs(args)
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		var err error
		withCobraStderr(io.Stderr, func() { err = root.Execute() })
		if err != nil {
			fmt.Fprintf(io.Stderr, "%s: %s\n", ProgramName, textsafe.Short(err.Error(), cobraMessageMax))
			return exitFailure
		}
		return exitSuccess
	}
	if code, refused := commandFirst(io.Stderr, args); refused {
		return code
	}
	cmd, err := root.ExecuteC()
	if err == nil && c.helpErr != nil {
		err = fmt.Errorf("writing the help: %w", c.helpErr)
	}
	name := ""
	if cmd != nil && cmd != root {
		name = cmd.Name()
	}
	return exitCode(io.Stderr, name, err)
}

// exitCode says err, unless the command said it already, with the
// command's name (name "" is the program itself), and is its exit code.
func exitCode(stderr io.Writer, name string, err error) int {
	if err == nil {
		return 0
	}
	prefix := strings.TrimSpace(ProgramName + " " + name)
	var exit *exitError
	if errors.As(err, &exit) {
		if exit.Err != nil {
			fmt.Fprintf(stderr, "%s: %s\n", prefix, errorText(exit.Err))
		}
		return exit.Code
	}
	var usage *usageError
	if errors.As(err, &usage) || kustbuild.IsFlagError(err) { // a flag a build needed was left out
		fmt.Fprintf(stderr, "%s: %s\nRun '%s --help' for usage.\n", prefix, errorText(err), prefix)
		return exitUsage
	}
	fmt.Fprintf(stderr, "%s: %s\n", prefix, errorText(err))
	return exitForError(err)
}

// errorText is an error as the terminal is shown it: errors quote paths,
// names and values from bundles and hosts, so each line is escaped
// (internal/report/textsafe); the line breaks between an error's own lines
// stay. A path an os error quotes raw (open PATH: ...) is escaped whole
// first, so a newline typed in it starts no line of its own.
func errorText(err error) string {
	text := err.Error()
	for _, p := range pathsOf(err) {
		if strings.ContainsAny(p, "\r\n") {
			text = strings.ReplaceAll(text, p, textsafe.Escape(p))
		}
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = textsafe.Escape(l)
	}
	return strings.Join(lines, "\n")
}

// pathsOf are the paths the *fs.PathError and *os.LinkError values in
// err's chain (joined errors included) hold, as typed.
func pathsOf(err error) []string {
	var paths []string
	switch e := err.(type) {
	case nil:
		return nil
	case *fs.PathError:
		paths = append(paths, e.Path)
	case *os.LinkError:
		paths = append(paths, e.Old, e.New)
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		paths = append(paths, pathsOf(u.Unwrap())...)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			paths = append(paths, pathsOf(e)...)
		}
	}
	return paths
}
