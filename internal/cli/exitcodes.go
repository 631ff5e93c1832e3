package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// The exit codes of the commands that share the root's lock and the
// journal (render, certs, teardown, status) and of wait: one number per
// meaning, whichever command exits with it. exitTable says what each means;
// the commands' --help, README.md and docs/commands.md are checked against
// it (exitcodes_test.go).
const (
	exitSuccess     = 0
	exitFailure     = 1
	exitUsage       = 2
	exitBadInput    = 3
	exitCheckFailed = 4
	exitRefused     = 5
	exitLocked      = 6
	exitNotDurable  = 7
	// The first SIGTERM or SIGINT stops render, certs or teardown at its
	// next safe point with one of these two, which say what it left
	// (docs/render.md, "Signals"); a second one ends the process at once
	// by that signal, which a shell reports as 128 + its number (130
	// SIGINT, 143 SIGTERM), as it does a kill.
	exitInterruptedUndone    = 8
	exitInterruptedCompleted = 9
	exitReportNotWritten     = 10
	exitUnreachable          = 11
)

// exitTimedOut is the exit of a command its --timeout abandoned (deadline.go):
// a failure, which each such command's --help words as its own answer of no
// (status: not usable; wait: not ready; probe: not reached; teardown: the
// failure row says it).
const exitTimedOut = exitFailure

// exitCommands are the commands exitTable covers, in the order the docs
// list them.
var exitCommands = []string{"render", "certs", "teardown", "status", "wait"}

// exitRow is one exit code: its name (the first words wherever it is
// listed), what it means in general, and the commands it applies to with
// what it says in each one's --help ("" says the meaning).
type exitRow struct {
	Code    int
	Name    string
	Meaning string
	Help    map[string]string
}

// exitTable is the one exit-code table; rows in code order.
var exitTable = []exitRow{
	{exitSuccess, "success", "the command did what was asked", map[string]string{
		"render":   "written, already up to date, dry run, or Konnectivity disabled (sno)",
		"certs":    "done, the certificates written or reused",
		"teardown": "done (warnings, such as an unreachable API server, go to stderr)",
		"status":   "the tunnel is usable (warnings allowed)",
		"wait":     "ready",
	}},
	{exitFailure, "failure", "the command failed, or its answer is no", map[string]string{
		"render": "building, reading or writing failed (the message says whether the host is verified unchanged)",
		"certs":  "making, reading or writing the certificates failed (the message says what)",
		"teardown": "a file could not be removed, a symbolic link sits at a recorded path, the state file names a path render " +
			"cannot place, the kubeconfig is unusable, the API server refused a delete, or --timeout passed before teardown " +
			"reached the host (nothing was removed)",
		"status": "the tunnel is not usable, or recovering an interrupted run failed",
		"wait":   "not ready when --timeout passed",
	}},
	{exitUsage, "usage error", "a flag or argument is missing, unknown, or refuses its value on its own as the flags are read " +
		"(syntax, range, unknown name), in every command", map[string]string{
		"render": "a flag or argument is missing, unknown, or refuses its value on its own: --root missing, --bootstrap-ip missing " +
			"(and no spec.bootstrapIP in the overlay), unusable (0.0.0.0, loopback, not an address) or of a family the overlay does not " +
			"take, --proxy-version missing (and neither the overlay nor the image's tag names one) or unknown, --image not a reference, " +
			"--key-algorithm, --key-size",
		"certs": "", "teardown": "", "status": "", "wait": "",
	}},
	{exitBadInput, "bad input", "what the command reads is bad or unknown (an overlay, a file, a kustomization), a flag disagrees " +
		"with what it read, or a symbolic link or special file is in the way", map[string]string{
		"render": "OVERLAY unknown, or an overlay the guard, the generator, its own check or the build refuses (YAML, a field or " +
			"value it names, a patch without its target, a remote base or file it would fetch), --bootstrap-ip disagreeing with the overlay's spec.bootstrapIP " +
			"(or auto finding no address), --image over an image the overlay pins (without --keep-pin or --override-pin), " +
			"--root with a parent path that is a file, a damaged certificate file, or a symbolic link " +
			"or special file under --root",
	}},
	{exitCheckFailed, "failed checks", "the bundle failed its checks; nothing was written", map[string]string{
		"render": "",
	}},
	{exitRefused, "refused", "a destination exists that render did not write (--force overwrites it)", map[string]string{
		"render": "",
	}},
	{exitLocked, "locked", "another render, certs or teardown held the root's lock past --lock-timeout", map[string]string{
		"render": "", "certs": "", "teardown": "",
		"status": "an interrupted run waits to be recovered, and another render, certs or teardown held the root's lock past --timeout",
	}},
	{exitNotDurable, "not confirmed durable", "the bundle is written but its durability is not confirmed (run again)", map[string]string{
		"render": "",
	}},
	{exitInterruptedUndone, "interrupted, undone", "SIGTERM or SIGINT stopped it before the point of no return; the host is as before", map[string]string{
		"render":   "",
		"certs":    "SIGTERM or SIGINT stopped it before the point of no return; the directory is as before",
		"teardown": "SIGTERM or SIGINT stopped it before it removed anything; the host is as before",
		"wait":     "SIGTERM or SIGINT (Ctrl-C) stopped it; the verdict so far is printed, and wait changes nothing",
	}},
	{exitInterruptedCompleted, "interrupted, completed", "SIGTERM or SIGINT came after the point of no return; the change was completed", map[string]string{
		"render":   "",
		"certs":    "SIGTERM or SIGINT came after the point of no return; the set was completed",
		"teardown": "SIGTERM or SIGINT came once it had begun removing files: it removed them all, and the cluster objects it did not delete yet stay recorded",
	}},
	{exitReportNotWritten, "report not written", "done, but a report for --gather could not be written", map[string]string{
		"teardown": "done as for 0, but the usage report could not be read, written or printed; the message says why " +
			"(any other failure's code wins, and the report's failure is then a warning)",
		"wait": "the verdict is printed, but DIR/wait.json could not be written to --gather (this wins over 0 and 1)",
	}},
	{exitUnreachable, "API server unreachable", "--strict and the API server was unreachable", map[string]string{
		"teardown": "",
	}},
}

// exitLine is one code a command's --help lists: "name: what it says here".
type exitLine struct {
	Code int
	Text string
}

// usageExit is the usage error every command lists, in the table's words.
var usageExit = exitLine{exitUsage, exitTable[exitUsage].Name}

// tableExits are command's rows of exitTable, each its name and what it
// says in that command.
func tableExits(command string) []exitLine {
	if !slices.Contains(exitCommands, command) { // a typo would print no codes at all
		panic("cli: the exit-code table does not cover " + command)
	}
	var out []exitLine
	for _, r := range exitTable {
		text, ok := r.Help[command]
		if !ok {
			continue
		}
		if text == "" {
			text = r.Meaning
		}
		out = append(out, exitLine{r.Code, r.Name + ": " + text})
	}
	return out
}

// exitHelp is the "Exit codes:" section of a command's --help: each code,
// what it says there, wrapped to width.
func exitHelp(lines []exitLine, width int) string {
	var b strings.Builder
	b.WriteString("Exit codes:")
	for _, l := range lines {
		prefix := fmt.Sprintf("  %-2d ", l.Code)
		for _, line := range strings.Split(wrap(l.Text, width-len(prefix)), "\n") {
			b.WriteString("\n" + prefix + line)
			prefix = strings.Repeat(" ", len(prefix))
		}
	}
	return b.String()
}

// exitForError is the exit code an error that no command chose a code for
// calls for: a lock another run held is exitLocked for every command that
// takes it, else a failure.
func exitForError(err error) int {
	var locked *hostfs.LockedError
	if errors.As(err, &locked) {
		return exitLocked
	}
	return exitFailure
}
