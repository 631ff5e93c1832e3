package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// exitEntry is one code as a --help or a document lists it.
type exitEntry struct {
	Code int
	Text string
}

// wantExitEntries is what command's --help must list: each row of
// exitTable that applies to it, its name first.
func wantExitEntries(command string) []exitEntry {
	var want []exitEntry
	for _, r := range exitTable {
		text, ok := r.Help[command]
		if !ok {
			continue
		}
		if text == "" {
			text = r.Meaning
		}
		want = append(want, exitEntry{r.Code, r.Name + ": " + text})
	}
	return want
}

var (
	helpExitLine = regexp.MustCompile(`^  (\d+) +(\S.*)$`)
	helpExitMore = regexp.MustCompile(`^ {5}(\S.*)$`)
	// a code in a one-sentence "Exit status: 0 ...; 1 ..." of the other commands
	helpExitCode = regexp.MustCompile(`(?:^|[\s:;,])(\d+) [a-z(]`)
)

// helpExitEntries reads the "Exit codes:" section of a --help: a line per
// code, continued by lines indented past the code.
func helpExitEntries(help string) []exitEntry {
	_, section, ok := strings.Cut(help, "\nExit codes:\n")
	if !ok {
		return nil
	}
	var got []exitEntry
	for _, line := range strings.Split(section, "\n") {
		if m := helpExitLine.FindStringSubmatch(line); m != nil {
			code, _ := strconv.Atoi(m[1])
			got = append(got, exitEntry{code, m[2]})
		} else if m := helpExitMore.FindStringSubmatch(line); m != nil && len(got) > 0 {
			got[len(got)-1].Text += " " + m[1]
		} else {
			break
		}
	}
	return got
}

// TestExitCodesInEveryHelp: render, certs, teardown, status and wait list
// exactly their rows of exitTable in --help, and every other command lists
// only 0, 1 and 2, so no number means one thing in one command and another
// thing in the next.
func TestExitCodesInEveryHelp(t *testing.T) {
	for _, cmd := range New(Config{}).commands {
		t.Run(cmd.Name, func(t *testing.T) {
			code, help, stderr := runCLI(t, "", cmd.Name, "--help")
			if code != 0 {
				t.Fatalf("%s --help: exit %d\n%s", cmd.Name, code, stderr)
			}
			if !slices.Contains(exitCommands, cmd.Name) {
				_, sentence, ok := strings.Cut(help, "Exit ")
				if !ok {
					if cmd.Name != "version" { // version only prints: 0, or 2 for a usage error
						t.Errorf("%s --help lists no exit codes", cmd.Name)
					}
					return
				}
				sentence, _, _ = strings.Cut(sentence, ".\n")
				for _, m := range helpExitCode.FindAllStringSubmatch(sentence, -1) {
					if m[1] != "0" && m[1] != "1" && m[1] != "2" {
						t.Errorf("%s --help lists exit %s outside the shared table: %q", cmd.Name, m[1], sentence)
					}
				}
				return
			}
			got, want := helpExitEntries(help), wantExitEntries(cmd.Name)
			if !slices.Equal(got, want) {
				t.Errorf("%s --help lists\n%s\nwant (exitTable)\n%s", cmd.Name, formatEntries(got), formatEntries(want))
			}
		})
	}
}

func formatEntries(es []exitEntry) string {
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "  %d %s\n", e.Code, e.Text)
	}
	return b.String()
}

// TestExitTableShape: the codes run 0, 1, 2, ... without a gap or a
// repeat, every row has a name and a meaning, and applies only to the
// commands the table covers.
func TestExitTableShape(t *testing.T) {
	for i, r := range exitTable {
		if r.Code != i {
			t.Errorf("row %d has code %d: the codes must run in order without a gap", i, r.Code)
		}
		if r.Name == "" || r.Meaning == "" || len(r.Help) == 0 {
			t.Errorf("exit %d: name %q, meaning %q, %d command(s): each needs all three", r.Code, r.Name, r.Meaning, len(r.Help))
		}
		for cmd := range r.Help {
			if !slices.Contains(exitCommands, cmd) {
				t.Errorf("exit %d names %q, which is not in exitCommands", r.Code, cmd)
			}
		}
	}
}

// TestExitForError: whatever command returns an error nobody gave a code,
// a held lock (however wrapped) is exitLocked and anything else a failure;
// a usage error and a chosen code stay what they are.
func TestExitForError(t *testing.T) {
	locked := &hostfs.LockedError{Root: "/", Holder: "pid 1 (konnectivity-bundle render --root /)"}
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"locked", locked, exitLocked},
		{"locked, wrapped", fmt.Errorf("an interrupted run waits to be recovered, and %w", locked), exitLocked},
		{"other error", errors.New("disk on fire"), exitFailure},
		{"usage", usagef("--root: missing"), exitUsage},
		{"chosen code", &exitError{Code: exitRefused, Err: errors.New("refused")}, exitRefused},
	}
	for _, cmd := range exitCommands {
		for _, tc := range cases {
			if got := exitCode(io.Discard, cmd, tc.err); got != tc.want {
				t.Errorf("%s, %s: exit %d, want %d", cmd, tc.name, got, tc.want)
			}
		}
	}
}

// TestLockedIsOneCode: render, certs and teardown with --lock-timeout 0,
// and status recovering a journal with --timeout, on a root whose lock
// another open file holds, all exit 6 naming the holder.
func TestLockedIsOneCode(t *testing.T) {
	root := t.TempDir()
	journal := filepath.Join(root, hostlayout.JournalPath)
	if err := os.MkdirAll(filepath.Dir(journal), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(journal, []byte("{}"), 0o600); err != nil { // status locks only to recover
		t.Fatal(err)
	}
	d, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		hostRenderArgs(root, "--lock-timeout", "0"),
		{"certs", "--root", root, "--dir", filepath.Join(root, "certs"), "--bootstrap-ip", hostTestIP, "--lock-timeout", "0"},
		{"teardown", "--root", root, "--lock-timeout", "0"},
		{"status", "--root", root, "--timeout", "1ms"},
	} {
		t.Run(args[0], func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", args...)
			if code != exitLocked || !strings.Contains(stderr, "is locked by pid ") {
				t.Errorf("exit %d, want %d naming the holder\nstdout:\n%s\nstderr:\n%s", code, exitLocked, stdout, stderr)
			}
		})
	}
}

// TestWaitGatherNotWritten: a verdict wait printed but could not write to
// --gather (here a directory stands where wait.json goes) is exit 10, the
// code teardown gives its unwritten usage report, naming --gather.
func TestWaitGatherNotWritten(t *testing.T) {
	gather := t.TempDir()
	if err := os.Mkdir(filepath.Join(gather, "wait.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "wait", "--root", t.TempDir(), "--timeout", "50ms", "--gather", gather)
	if code != exitReportNotWritten || !strings.Contains(stderr, "--gather") || !strings.Contains(stdout, "NOT ready after") {
		t.Errorf("exit %d, want %d naming --gather after the verdict\nstdout:\n%s\nstderr:\n%s", code, exitReportNotWritten, stdout, stderr)
	}
}
