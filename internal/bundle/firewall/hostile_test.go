package firewall_test

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/cli"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// hostileValues are what an attacker puts in a bundle string or a flag:
// every character of the hostile alphabet (newline, CR, quotes, $(),
// backticks, ;, |, &, ESC, NUL, U+2028) between text and a command, and
// whole payloads for the sh, nft and HCL files.
var hostileValues = func() []string {
	var out []string
	for _, c := range []string{"\n", "\r", "'", `"`, "$(touch MARK)", "`touch MARK`", ";", "|", "&", "\x1b]0;owned\x07\x1b[2J", "\x00", "\u2028", "\u2029", "\\", "\t"} {
		out = append(out, "evil"+c+"touch MARK #")
	}
	return append(out,
		"x\nadd table ip owned\n",
		"x\n}\nresource \"aws_instance\" \"owned\" {\n",
		"${file(\"/etc/passwd\")}",
		"x'; touch MARK; echo '",
		"x\"; touch MARK; echo \"",
		"x\\\ntouch MARK",
		"\xff\xfe invalid UTF-8",
	)
}()

// forms are every rule output: each format, the nftables chain form, apply
// and revoke.
type form struct {
	format   string
	nftChain string
	revoke   bool
}

func (f form) String() string {
	s := f.format
	if f.nftChain != "" {
		s += "-chain"
	}
	if f.revoke {
		s += "-revoke"
	}
	return s
}

func allForms() []form {
	var out []form
	for _, format := range firewall.Formats() {
		for _, revoke := range []bool{false, true} {
			out = append(out, form{format: format, revoke: revoke})
			if format == "nftables" {
				out = append(out, form{format: format, nftChain: "inet filter input", revoke: revoke})
			}
		}
	}
	return out
}

// TestHostileRequirement: a requirement whose strings (the host agents
// dial, the objects it was read from) hold any hostile value still gives
// files that are data: whatever validation ports does first, the writer
// alone keeps every value inside a comment, escaped.
func TestHostileRequirement(t *testing.T) {
	v := newVerifier(t)
	base := planCases[2] // dual-stack by name: every family, a host name
	for _, f := range allForms() {
		t.Run(f.String(), func(t *testing.T) {
			opts := base.opts
			opts.Revoke, opts.NftChain = f.revoke, f.nftChain
			clean := render(t, f.format, base.req, opts)
			for _, val := range hostileValues {
				for _, req := range []firewall.Requirement{withDial(base.req, val), withSource(base.req, val)} {
					v.same(t, f, clean, render(t, f.format, req, opts), base, val)
				}
			}
		})
	}
}

func withDial(r firewall.Requirement, s string) firewall.Requirement {
	r.Dial, r.DialAddr = s, netip.Addr{}
	return r
}
func withSource(r firewall.Requirement, s string) firewall.Requirement { r.Source += s; return r }

// bundlePlace is where in the ipv4 golden bundle a hostile value goes: old
// is replaced by with, in which %s stands for the value as a YAML string.
type bundlePlace struct {
	name, old, with string
	field           string // what a refusal must name
}

var bundlePlaces = []bundlePlace{
	{"agent host", "- --proxy-server-host=192.0.2.10\n", "- %s\n", "--proxy-server-host"},
	{"server name", "  name: konnectivity-server\n  namespace: kube-system\n", "  name: %s\n  namespace: kube-system\n", "metadata.name"},
	{"server namespace", "  name: konnectivity-server\n  namespace: kube-system\n", "  name: konnectivity-server\n  namespace: %s\n", "metadata.namespace"},
	{"agent name", "  name: konnectivity-agent\n  namespace: openshift-bootstrap-konnectivity\n", "  name: %s\n  namespace: openshift-bootstrap-konnectivity\n", "metadata.name"},
	{"agent namespace", "  name: konnectivity-agent\n  namespace: openshift-bootstrap-konnectivity\n", "  name: konnectivity-agent\n  namespace: %s\n", "metadata.namespace"},
	{"server apiVersion", "apiVersion: v1\nkind: Pod\n", "apiVersion: %s\nkind: Pod\n", ""},
	{"server kind", "apiVersion: v1\nkind: Pod\n", "apiVersion: v1\nkind: %s\n", "no server static pod"},
	{"agent apiVersion", "apiVersion: apps/v1\nkind: DaemonSet\n", "apiVersion: %s\nkind: DaemonSet\n", ""},
	{"agent kind", "apiVersion: apps/v1\nkind: DaemonSet\n", "apiVersion: apps/v1\nkind: %s\n", ""},
	{"bind address", "    - --agent-port=8091\n", "    - --agent-port=8091\n    - %s\n", ""},
}

// flagPlaces are the flags a hostile value can be given to, for the forms
// that take it.
var flagPlaces = []struct {
	flag  string
	takes func(form) bool
}{
	{"--from", func(form) bool { return true }},
	{"--nft-chain", func(f form) bool { return f.format == "nftables" }},
	{"--infra-id", func(f form) bool { return firewall.IsCloud(f.format) }},
}

// TestHostileBundle: every bundle string that reaches ports' rules, and
// every rule flag, with each hostile value, in every form: ports either
// refuses, naming the field or flag and writing nothing, or writes what it
// writes for the clean bundle but for escaped comments, and the file
// passes its language's checks.
func TestHostileBundle(t *testing.T) {
	v := newVerifier(t)
	raw, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "testdata", "golden", "ipv4.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	clean := string(raw)
	for _, f := range allForms() {
		t.Run(f.String(), func(t *testing.T) {
			args := formArgs(f)
			want := portsOK(t, clean, args...)
			for _, val := range hostileValues {
				for _, pl := range bundlePlaces {
					bundle := place(t, clean, pl, val)
					v.portsCase(t, f, want, bundle, pl.name, pl.field, val, args...)
				}
				for _, fp := range flagPlaces {
					if fp.takes(f) {
						v.portsCase(t, f, want, clean, fp.flag, fp.flag, val, withFlag(args, fp.flag, val)...)
					}
				}
			}
		})
	}
}

// formArgs are ports' arguments for a form of the ipv4 bundle on stdin.
func formArgs(f form) []string {
	args := []string{"-o", f.format, "--from", "192.0.2.0/24"}
	if f.nftChain != "" {
		args = append(args, "--nft-chain", f.nftChain)
	}
	if firewall.IsCloud(f.format) {
		args = append(args, "--infra-id", infraID)
	}
	if f.revoke {
		args = append(args, "--revoke")
	}
	return append(args, "-")
}

// withFlag sets flag to val in args (a flag given twice: the last wins for
// single-valued flags; --from is replaced so that only val is given).
func withFlag(args []string, flag, val string) []string {
	out := append([]string{}, args...)
	for i := range out {
		if out[i] == flag {
			out[i+1] = val
			if flag == "--nft-chain" {
				out[i+1] = "inet filter " + val
			}
			return out
		}
	}
	return append(out[:len(out)-1], flag, val, "-")
}

func place(t *testing.T, bundle string, pl bundlePlace, val string) string {
	t.Helper()
	if strings.Count(bundle, pl.old) != 1 {
		t.Fatalf("%s: %q is not in the bundle exactly once", pl.name, pl.old)
	}
	s := val
	if pl.name == "agent host" {
		s = "--proxy-server-host=" + val
	} else if pl.name == "bind address" {
		s = "--agent-bind-address=" + val
	}
	quoted, _ := json.Marshal(s) // a JSON string is a YAML double-quoted scalar
	return strings.Replace(bundle, pl.old, strings.Replace(pl.with, "%s", string(quoted), 1), 1)
}

func portsOK(t *testing.T, stdin string, args ...string) []byte {
	t.Helper()
	code, out, errb := runPortsIn(stdin, args...)
	if code != 0 {
		t.Fatalf("ports %q on the clean bundle: exit %d: %s", args, code, errb)
	}
	return []byte(out)
}

func runPortsIn(stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	io := cli.IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code := cli.New(cli.Config{}).Main(append([]string{cli.ProgramName, "ports"}, args...), io)
	return code, out.String(), errb.String()
}

// portsCase runs one hostile case through ports and judges it.
func (v *verifier) portsCase(t *testing.T, f form, clean []byte, stdin, where, field, val string, args ...string) {
	t.Helper()
	code, out, errb := runPortsIn(stdin, args...)
	if code == 0 {
		v.same(t, f, clean, []byte(out), planCase{name: where}, val)
		return
	}
	switch {
	case out != "":
		t.Errorf("%s = %q: refused (exit %d) but wrote rules:\n%s", where, val, code, out)
	case field != "" && !strings.Contains(errb, field) && !strings.Contains(errb, "parse YAML stream"):
		t.Errorf("%s = %q: the refusal does not name %s:\n%s", where, val, field, errb)
	case hasRawControl(strings.ReplaceAll(val, "\n", "\r")) && strings.Contains(errb, val):
		t.Errorf("%s = %q: the refusal carries the value raw:\n%q", where, val, errb)
	}
	v.refused++
}

// withoutComments drops the lines that are comments in sh, nft and HCL.
func withoutComments(b []byte) string {
	var keep []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "#") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// hasRawControl: a control character other than newline and tab, a line
// or paragraph separator, or invalid UTF-8.
func hasRawControl(s string) bool {
	return !isUTF8(s) || strings.ContainsFunc(s, func(r rune) bool {
		return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029')
	})
}

func isUTF8(s string) bool { return utf8.ValidString(s) }
