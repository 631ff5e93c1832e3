package cli

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// sharedFlagUse is which of the shared flags a command takes and how.
type sharedFlagUse struct {
	root        bool     // takes --root; required exactly when the command writes the host (command.Writes)
	output      []string // --output formats, the first the default; nil: no --output
	bootstrapIP bool
	image       bool
	gather      bool
	quiet       bool
	kubeconfig  bool // reads the kube-apiserver
	verbose     bool // -v: info findings too (detect-ip's own -v says where its address came from)
}

// sharedFlagTable lists every command; TestSharedFlags fails on one it lacks.
var sharedFlagTable = map[string]sharedFlagUse{
	"build":      {bootstrapIP: true, image: true, quiet: true, verbose: true},
	"certs":      {root: true, bootstrapIP: true},
	"completion": {},
	"check":      {output: []string{"text", "json"}, bootstrapIP: true, image: true, quiet: true},
	"detect-ip":  {},
	"diff":       {output: []string{"text", "markdown", "json"}, bootstrapIP: true, image: true},
	"fn":         {},
	"ports": {output: []string{"text", "json", "aws", "aws-cloudformation", "aws-terraform", "azure", "firewalld", "gcp", "iptables", "nftables", "openstack"},
		bootstrapIP: true, image: true},
	"probe":         {root: true, output: []string{"text", "json"}, kubeconfig: true},
	"render":        {root: true, bootstrapIP: true, image: true, quiet: true, verbose: true},
	"status":        {root: true, output: []string{"text", "json"}, gather: true, kubeconfig: true},
	"teardown":      {root: true, gather: true, quiet: true, kubeconfig: true},
	"version":       {output: []string{"text", "json"}},
	"proxy-version": {},
	"wait":          {root: true, output: []string{"text", "json"}, gather: true, kubeconfig: true},
}

var sharedNames = []string{"output", "root", "bootstrap-ip", "image", "proxy-version", "gather", "quiet", "kubeconfig"}

// TestSharedFlags walks every command's flag set: the shared flags are
// declared by the helpers in flags.go (never by the command itself), with
// the one --root rule and the same --output and --bootstrap-ip help.
func TestSharedFlags(t *testing.T) {
	c := New(Config{})
	for _, cmd := range c.commands {
		t.Run(cmd.Name, func(t *testing.T) {
			want, ok := sharedFlagTable[cmd.Name]
			if !ok {
				t.Fatalf("command %s is not in sharedFlagTable: add which shared flags it takes", cmd.Name)
			}
			fs := newFlagSet(cmd)
			cmd.Options(fs)
			has := map[string]bool{"root": want.root, "output": want.output != nil, "bootstrap-ip": want.bootstrapIP, "image": want.image, "proxy-version": want.image, "gather": want.gather, "quiet": want.quiet, "kubeconfig": want.kubeconfig}
			for _, name := range sharedNames {
				f := fs.Lookup(name)
				switch {
				case f == nil && has[name]:
					t.Errorf("--%s is missing", name)
				case f != nil && !has[name]:
					t.Errorf("--%s is declared but the table says the command does not take it", name)
				case f != nil && f.Annotations[sharedAnnotation] == nil:
					t.Errorf("--%s is declared by the command itself; use the helper in flags.go", name)
				}
			}
			use := "reads"
			if cmd.Writes == writesHost {
				use = "places"
			}
			checkRootFlag(t, fs.Lookup("root"), use)
			if locks := fs.Lookup("lock-timeout") != nil; locks != (cmd.Writes != writesNothing) {
				t.Errorf("--lock-timeout declared %v, but the command writes %v: the commands that change the host (command.Writes) share the root's lock, and only they", locks, cmd.Writes)
			}
			checkOutputFlag(t, fs.Lookup("output"), want.output)
			if f := fs.Lookup("bootstrap-ip"); f != nil && !strings.HasPrefix(f.Usage, "the bootstrap node's IP that agents dial") {
				t.Errorf("--bootstrap-ip help %q does not start with the shared text", f.Usage)
			}
			if f := fs.Lookup("image"); f != nil && !strings.HasPrefix(f.Usage, "apiserver-network-proxy image reference (default $KONNECTIVITY_IMAGE)") {
				t.Errorf("--image help %q does not start with the shared text", f.Usage)
			}
			if f := fs.Lookup("quiet"); f != nil && (f.Usage != quietHelp || f.Shorthand != "q") {
				t.Errorf("--quiet: -%s, help %q; want -q and the shared text", f.Shorthand, f.Usage)
			}
			if f := fs.Lookup("gather"); f != nil && (!strings.HasPrefix(f.Usage, gatherHelp) || f.DefValue != "") {
				t.Errorf("--gather help %q, default %q; want the shared text and no default", f.Usage, f.DefValue)
			}
			if f := fs.Lookup("kubeconfig"); f != nil && (!strings.HasSuffix(f.Usage, "; "+kubeconfigRule) || f.DefValue != "") {
				t.Errorf("--kubeconfig help %q, default %q; want the lookup rule, with the --timeout bound, and no default", f.Usage, f.DefValue)
			}
			if f := fs.Lookup("verbose"); want.verbose && (f == nil || f.Usage != verboseHelp || f.Shorthand != "v" || f.Annotations[sharedAnnotation] == nil) {
				t.Errorf("--verbose: %v; want -v, declared by verboseFlag, with the shared text", f)
			}
			if f := fs.Lookup("timeout"); want.kubeconfig && (f == nil || !strings.Contains(f.Usage, "bounds every read of the kube-apiserver")) {
				t.Errorf("--timeout does not say it bounds every read of the kube-apiserver: %v", f)
			}
		})
	}
}

// TestRootHelpPerCommand: each command's --root says what the root is for
// that command (no two say the same), and the rule they follow is stated
// once, in docs/commands.md, naming the commands that require it.
func TestRootHelpPerCommand(t *testing.T) {
	seen := map[string]string{}
	var places []string
	for _, cmd := range New(Config{}).commands {
		fs := newFlagSet(cmd)
		cmd.Options(fs)
		f := fs.Lookup("root")
		if f == nil {
			continue
		}
		if other, ok := seen[f.Usage]; ok {
			t.Errorf("%s and %s say the same of --root: %q", other, cmd.Name, f.Usage)
		}
		seen[f.Usage] = cmd.Name
		if f.Annotations[requiredAnnotation] != nil {
			places = append(places, cmd.Name)
		}
	}
	doc := strings.Join(strings.Fields(strings.ReplaceAll(readDoc(t, "docs/commands.md"), "*", "")), " ")
	rule := "Required by the commands that choose which host paths to write or remove (" + strings.Join(places, ", ") + "); / by default for the others"
	if !strings.Contains(doc, rule) {
		t.Errorf("docs/commands.md does not state the --root rule %q", rule)
	}
}

func checkRootFlag(t *testing.T, f *pflag.Flag, use string) {
	t.Helper()
	if f == nil {
		return
	}
	required := f.Annotations[requiredAnnotation] != nil
	switch {
	case strings.Contains(f.Usage, "render, teardown"):
		t.Errorf("--root help %q states the rule for every command; say what --root is in this one (docs/commands.md has the rule)", f.Usage)
	case required != strings.HasSuffix(f.Usage, " (required)"):
		t.Errorf("--root help %q, required %v: the help says (required) exactly when it is", f.Usage, required)
	case use == "reads" && (f.DefValue != "/" || required):
		t.Errorf("--root default %q, required %v; a command that reads under the root defaults to /", f.DefValue, required)
	case use == "places" && (f.DefValue != "" || !required):
		t.Errorf("--root default %q, required %v; a command that picks host paths to change requires it", f.DefValue, required)
	}
}

func checkOutputFlag(t *testing.T, f *pflag.Flag, formats []string) {
	t.Helper()
	if f == nil {
		return
	}
	if f.Shorthand != "o" || f.DefValue != formats[0] || f.Usage != "output format: "+strings.Join(formats, ", ") {
		t.Errorf("--output: -%s, default %q, help %q; want -o, %q, the formats %v", f.Shorthand, f.DefValue, f.Usage, formats[0], formats)
	}
}

// TestSharedFlagErrors: a bad --output or --bootstrap-ip is refused by
// every command that takes it, before the command runs, naming the flag
// and what it accepts; a required --root that is missing or empty is
// refused naming --root.
func TestSharedFlagErrors(t *testing.T) {
	c := New(Config{})
	for _, cmd := range c.commands {
		name, use := cmd.Name, sharedFlagTable[cmd.Name]
		type bad struct {
			args   []string
			stderr string
			code   int
		}
		const valueExit = exitUsage // a refused flag value is a usage error in every command
		var cases []bad
		if use.output != nil {
			cases = append(cases, bad{[]string{"-o", "yaml"}, `invalid argument "yaml" for "-o, --output" flag: use one of ` + strings.Join(use.output, ", "), 2})
			cases = append(cases, bad{[]string{"--output=YAML"}, `invalid argument "YAML" for "-o, --output" flag: use one of `, 2})
		}
		if use.bootstrapIP {
			cases = append(cases,
				bad{[]string{"--bootstrap-ip", "not-an-ip"}, `invalid argument "not-an-ip" for "--bootstrap-ip" flag: "not-an-ip" is not an IP address`, valueExit},
				bad{[]string{"--bootstrap-ip", "127.0.0.1"}, `invalid argument "127.0.0.1" for "--bootstrap-ip" flag: "127.0.0.1" is a loopback address`, valueExit},
				bad{[]string{"--bootstrap-ip", "192.0.2.10/24"}, `for "--bootstrap-ip" flag: "192.0.2.10/24" is not an IP address`, valueExit},
				bad{[]string{"--bootstrap-ip", "fe80::1%eth0"}, `for "--bootstrap-ip" flag: "fe80::1%eth0" has a zone`, valueExit})
		}
		if cmd.Writes == writesHost {
			cases = append(cases, bad{nil, "--root is required", 2}, bad{[]string{"--root", ""}, "--root is required", 2})
		}
		for _, tc := range cases {
			code, stdout, stderr := runProgram(t, c, nil, append([]string{name}, tc.args...)...)
			if code != tc.code || stdout != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want exit %d, no output and %q", name, tc.args, code, stdout, stderr, tc.code, tc.stderr)
			}
		}
	}
}

// TestUnknownFlagDidYouMean: a misspelled flag is a usage error that names
// the flags nearest to it; a name near none gets pflag's message alone.
func TestUnknownFlagDidYouMean(t *testing.T) {
	c := New(Config{})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "--bootstrapip", "192.0.2.10"}, "unknown flag: --bootstrapip: did you mean --bootstrap-ip?"},
		{[]string{"check", "--alow-empty"}, "unknown flag: --alow-empty: did you mean --allow-empty?"},
		{[]string{"build", "--img", "x"}, "unknown flag: --img: did you mean --image?"},
		{[]string{"status", "--roto", "/"}, "unknown flag: --roto: did you mean --root?"},
		{[]string{"build", "--zzzzzzzz"}, "unknown flag: --zzzzzzzz\n"},
	} {
		code, stdout, stderr := runProgram(t, c, nil, tc.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}
