package cli

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gate"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostileserver"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// The property: every command that reads the kube-apiserver, the
// proxy-server's ports and socket, or an input stream ends within the bound
// its --help states, stays under hostileRSSCeiling and exits with the code
// its --help documents, whatever the other side does (stall after
// accepting, drip a byte a second, stream without end, send one huge
// object). The commands and what they read are taken from the CLI itself
// (New's list and each command's flags, arguments and help), so a new
// command is covered, or fails this test, without anyone adding it here.

const (
	// hostileTimeout is the --timeout every case runs with.
	hostileTimeout = 2 * time.Second
	// hostileSlack is what a command may take past the bound its --help
	// states: start-up and scheduling on a loaded 2-core machine (a command
	// that keeps to its bound was measured within 0.5 s of it at load
	// average 25). It is kept below client-go's own 10 s limits, so a reader
	// that waits for those instead of --timeout fails.
	hostileSlack = 5 * time.Second
	// hostileKillAfter: a child still running this long past its bound is
	// killed, and that is the case's failure.
	hostileKillAfter = 30 * time.Second
	// hostileRSSCeiling is the most memory a command may hold (its maximum
	// resident set) against any hostile peer; the harness kills a child at
	// twice that, so a reader without a cap cannot take the machine.
	hostileRSSCeiling = 200 << 20
	// hostileInputFor is how long a stalling or dripping input stays open
	// before it ends.
	hostileInputFor = 3 * time.Second
	// hostileDialTimeout is the --dial-timeout of the commands that take one.
	hostileDialTimeout = time.Second
)

// hostileEndpointRow is what a command that reads an endpoint needs beyond
// --root, --timeout and --kubeconfig, and (from its traits, command.Reads)
// the exit code it declares for a peer that never answers usably and for
// a kubeconfig it cannot use, with the words its --help says them in.
type hostileEndpointRow struct {
	ports, kube []string
	code        int
	says        string
	badKube     int
	badKubeSays string
}

// hostileEndpointArgs are the arguments a command that reads an endpoint
// needs besides --root, --timeout and --kubeconfig, where it needs any.
var hostileEndpointArgs = map[string]hostileEndpointRow{
	"probe": {ports: []string{"192.0.2.1:443"}, kube: []string{"--webhooks"}},
	"wait":  {ports: []string{"--dial-timeout", hostileDialTimeout.String()}, kube: []string{"--dial-timeout", hostileDialTimeout.String()}},
}

// endpointRow is c's row: its arguments, and its codes from its traits.
func endpointRow(c hostileCommand) hostileEndpointRow {
	row := hostileEndpointArgs[c.name]
	row.code, row.says = c.spec.Reads.Unusable, exitText(c.spec, c.spec.Reads.Unusable)
	row.badKube, row.badKubeSays = c.spec.Reads.BadKubeconfig, exitText(c.spec, c.spec.Reads.BadKubeconfig)
	return row
}

// exitText is what spec's Exits say of code, "" when they list no such code.
func exitText(spec *command, code int) string {
	for _, e := range spec.Exits {
		if e.Code == code {
			return e.Text
		}
	}
	return ""
}

// hostileInputRow is how a command that reads an input is given it (in is
// "-" for stdin, or a path), whether it takes standard input only, and
// (from its traits, command.Reads) the exit code it declares for an input
// it cannot read, with the words its --help says it in.
type hostileInputRow struct {
	args      func(in string) []string
	stdinOnly bool
	code      int
	says      string
}

// hostileInputs says how every command that declares it reads an input
// (command.Reads) is given one.
var hostileInputs = map[string]hostileInputRow{
	"check":         {args: func(in string) []string { return []string{"check", in} }},
	"diff":          {args: func(in string) []string { return []string{"diff", in, "ipv4"} }},
	"fn":            {args: func(string) []string { return []string{"fn"} }, stdinOnly: true},
	"ports":         {args: func(in string) []string { return []string{"ports", in} }},
	"proxy-version": {args: func(in string) []string { return []string{"proxy-version", "--from-help", in} }},
}

// inputRow is c's row: how it is given the input, and its code from its traits.
func inputRow(c hostileCommand) hostileInputRow {
	row := hostileInputs[c.name]
	row.code, row.says = c.spec.Reads.Unusable, exitText(c.spec, c.spec.Reads.Unusable)
	return row
}

// hostileCommand is one command as the CLI declares it.
type hostileCommand struct {
	spec *command
	name string
	args string
	// sources is how many bundle arguments the command takes (command.Sources).
	sources int
	flags   *pflag.FlagSet
	help    string // --help, spaces normalised
}

func (c hostileCommand) has(flag string) bool { return c.flags.Lookup(flag) != nil }

func (c hostileCommand) kube() bool  { return c.has("kubeconfig") }
func (c hostileCommand) ports() bool { return c.has("root") && c.has("timeout") }
func (c hostileCommand) input() bool {
	return synopsisReads(c.synopsis()) || strings.Contains(c.help, "stdin") || strings.Contains(c.help, "standard input")
}

// synopsis is the command's argument synopsis. A synopsis that only names
// its bundle arguments (diff's "A B") takes each as every command that
// reads a bundle does: sourceArgs.
func (c hostileCommand) synopsis() string {
	if c.sources == 0 || strings.ContainsAny(c.args, "|[") || len(strings.Fields(c.args)) != c.sources {
		return c.args
	}
	return strings.TrimSpace(strings.Repeat(sourceArgs+" ", c.sources))
}

// synopsisReads says whether an argument synopsis offers - (stdin) or a
// FILE argument; the FILE of a flag such as --kubeconfig FILE is that
// flag's, not an input.
func synopsisReads(args string) bool {
	words := strings.Fields(args)
	for i, w := range words {
		flagValue := i > 0 && strings.HasPrefix(strings.TrimLeft(words[i-1], "["), "--")
		for _, alt := range strings.FieldsFunc(w, func(r rune) bool { return r == '|' || r == '[' || r == ']' }) {
			if alt == "-" || alt == "FILE" && !flagValue {
				return true
			}
		}
	}
	return false
}

// hostileCommands lists every command of the CLI with its flags and help.
func hostileCommands() []hostileCommand {
	var out []hostileCommand
	for _, cmd := range New(Config{}).commands {
		fs := newFlagSet(cmd)
		cmd.Options(fs)
		var b bytes.Buffer
		New(Config{}).Main([]string{ProgramName, cmd.Name, "--help"}, IO{Stdout: &b, Stderr: &b})
		out = append(out, hostileCommand{cmd, cmd.Name, cmd.Args, cmd.Sources, fs, strings.Join(strings.Fields(b.String()), " ")})
	}
	return out
}

// TestHostilePeers runs the built binary of every reader command against
// every hostile peer: the kube-apiserver (--kubeconfig), the rendered
// server's health and admin ports and socket (--root with --timeout), and
// its input on stdin, as a FIFO and as a file.
func TestHostilePeers(t *testing.T) {
	cmds := hostileCommands()
	classifyHostile(t, cmds)
	bin := tooltest.BuildSelf(t, t.TempDir())
	for _, c := range cmds {
		if c.kube() || c.ports() {
			row := endpointRow(c)
			checkHostileSays(t, c, row.code, row.says)
			bound := hostileBound(t, c)
			if c.kube() {
				checkKubeBoundStated(t, c)
				for _, b := range hostileserver.Behaviours {
					t.Run(c.name+"/kube-apiserver/"+string(b), func(t *testing.T) {
						t.Parallel()
						runKubeCase(t, bin, c, row, b, bound)
					})
				}
			}
			if c.ports() {
				for _, b := range hostileserver.Behaviours {
					t.Run(c.name+"/server-ports/"+string(b), func(t *testing.T) {
						t.Parallel()
						runPortsCase(t, bin, c, row, b, bound)
					})
				}
			}
		}
		if c.input() {
			row := inputRow(c)
			checkHostileSays(t, c, row.code, row.says)
			for _, src := range hostileSources {
				if row.stdinOnly && src != sourceStdin {
					continue
				}
				for _, b := range hostileserver.Behaviours {
					if src == sourceFile && b != hostileserver.Huge { // a regular file cannot stall, drip or go on
						continue
					}
					t.Run(c.name+"/"+string(src)+"/"+string(b), func(t *testing.T) {
						t.Parallel()
						runInputCase(t, bin, row, src, b)
					})
				}
			}
		}
	}
}

// classifyHostile holds each command's declared traits (command.Reads)
// to what its flags and help show it reads: an endpoint (--kubeconfig, or
// --root with --timeout), an input (FILE or - in its arguments, or stdin
// in its help), or neither, and then it says what instead. The codes it
// declares must be among its Exits, and a row of arguments must name a
// command that declares what the row is for.
func classifyHostile(t *testing.T, cmds []hostileCommand) {
	t.Helper()
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
		r := c.spec.Reads
		switch {
		case r.Endpoint != (c.kube() || c.ports()):
			t.Errorf("%s declares Reads.Endpoint %v, but its flags say %v (--kubeconfig, or --root with --timeout): declare what it reads", c.name, r.Endpoint, c.kube() || c.ports())
		case r.Input != c.input():
			t.Errorf("%s declares Reads.Input %v, but its arguments and help say %v (FILE or -, or stdin): declare what it reads", c.name, r.Input, c.input())
		case !r.Endpoint && !r.Input && r.Instead == "":
			t.Errorf("%s reads no endpoint and no input: say in Reads.Instead what it reads", c.name)
		case (r.Endpoint || r.Input) && exitText(c.spec, r.Unusable) == "":
			t.Errorf("%s declares exit %d for a peer or input it cannot use, which its Exits do not list", c.name, r.Unusable)
		case c.kube() && exitText(c.spec, r.BadKubeconfig) == "":
			t.Errorf("%s declares exit %d for a kubeconfig it cannot use, which its Exits do not list", c.name, r.BadKubeconfig)
		}
		if _, ok := hostileInputs[c.name]; r.Input && !ok {
			t.Errorf("%s reads an input but hostileInputs has no row for it: add how it is given the input", c.name)
		}
	}
	for _, table := range []map[string]bool{keysOf(hostileEndpointArgs), keysOf(hostileInputs)} {
		for name := range table {
			if !slices.Contains(names, name) {
				t.Errorf("the hostile tables name %s, which the CLI no longer lists: remove it", name)
			}
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// checkHostileSays fails the test when the command's --help does not
// document the code a row expects.
func checkHostileSays(t *testing.T, c hostileCommand, code int, says string) {
	t.Helper()
	if !strings.Contains(c.help, says) {
		t.Errorf("%s --help no longer says %q, which documents exit %d for a hostile peer: update its row from --help", c.name, says, code)
	}
}

// hostileBound is the time a command may take with --timeout
// hostileTimeout, as its --help states it, plus hostileSlack: --timeout
// bounds the whole run ("give up after this long"; deadline.go enforces
// it for every command that takes one), and wait's poll under way when it
// passes finishes first (gate.Overrun, which its deadline adds).
func hostileBound(t *testing.T, c hostileCommand) time.Duration {
	t.Helper()
	f := c.flags.Lookup("timeout")
	if f == nil {
		t.Errorf("%s reads the kube-apiserver (--kubeconfig) but has no --timeout: nothing bounds a kube-apiserver that stalls; give it --timeout and say what it bounds", c.name)
		return hostileTimeout + hostileSlack
	}
	if !strings.Contains(f.Usage, "give up after this long") {
		t.Errorf("%s --help does not state that --timeout bounds the run (%q): say \"give up after this long\"", c.name, f.Usage)
	}
	bound := hostileTimeout + deadlineGrace
	if strings.Contains(c.help, "The poll under way when --timeout passes finishes first") {
		bound += gate.Overrun(gate.Options{DialTimeout: hostileDialTimeout})
	}
	return bound + hostileSlack
}

// checkKubeBoundStated fails the test when a command that reads the
// kube-apiserver does not say --timeout bounds those reads.
func checkKubeBoundStated(t *testing.T, c hostileCommand) {
	t.Helper()
	f := c.flags.Lookup("timeout")
	if f == nil {
		return // hostileBound says so
	}
	usage := f.Usage
	switch {
	case strings.Contains(c.help, "--timeout bounds every read of the kube-apiserver"):
	case strings.Contains(usage, "kube-apiserver") && !strings.Contains(usage, "of the usage report"): // not only some of its reads
	case strings.Contains(usage, "give up after this long") && !strings.Contains(c.help, "kube-apiserver's answers"):
	default:
		t.Errorf("%s --help does not state that --timeout bounds its reads of the kube-apiserver (say %q)", c.name, "--timeout bounds every read of the kube-apiserver")
	}
}

// hostileCaseName is the case as failure messages name it.
func hostileCaseName(args []string, what string, b hostileserver.Behaviour) string {
	return fmt.Sprintf("`konnectivity-bundle %s` against %s %s", strings.Join(args, " "), what, b)
}

// TestSynopsisReads: the argument synopses that offer an input, and the
// FILE of a flag, which is not one.
func TestSynopsisReads(t *testing.T) {
	for args, want := range map[string]bool{
		"[FILE|DIR|-]":                            true,
		"[FILE|DIR|OVERLAY|ROOT]":                 true,
		"--from-image REF | --from-help FILE|-":   true,
		"A B":                                     false,
		"[OVERLAY|DIR]":                           false,
		"TARGET | --webhooks --kubeconfig FILE":   false,
		"TARGET | --webhooks [--kubeconfig FILE]": false,
	} {
		if got := synopsisReads(args); got != want {
			t.Errorf("synopsisReads(%q) = %v, want %v", args, got, want)
		}
	}
}

// TestHostileSynopsis: a synopsis that only names its bundle arguments
// reads as sourceArgs, one that spells its own alternatives as it is.
func TestHostileSynopsis(t *testing.T) {
	for _, tc := range []struct {
		c    hostileCommand
		want bool
	}{
		{hostileCommand{args: "A B", sources: 2}, true},
		{hostileCommand{args: "A B"}, false},
		{hostileCommand{args: buildArgs, sources: 1}, false},
		{hostileCommand{args: sourceArgs, sources: 1}, true},
	} {
		if got := synopsisReads(tc.c.synopsis()); got != tc.want {
			t.Errorf("%q with %d sources reads an input: %v, want %v", tc.c.args, tc.c.sources, got, tc.want)
		}
	}
}
