package proxyversion_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// helpFlag is one flag as the real binary's --help lists it.
type helpFlag struct {
	short, typ, def string
}

// helpLine is pflag's usage line: "  -v, --v Level   usage (default 4)".
var helpLine = regexp.MustCompile(`^\s+(?:-(\w), )?--([a-z0-9-]+)(?: (\w+))?\s{2,}(.*)$`)

// helpDefault is the default pflag appends; "(default: 0)." inside a usage
// text is not one.
var helpDefault = regexp.MustCompile(`\(default (.+)\)$`)

func readHelp(t *testing.T, path string) map[string]helpFlag {
	t.Helper()
	bin := path
	out, _ := exec.Command(path, "--help").CombinedOutput()
	flags := map[string]helpFlag{}
	for _, line := range strings.Split(string(out), "\n") {
		m := helpLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := helpFlag{short: m[1], typ: m[3]}
		if d := helpDefault.FindStringSubmatch(m[4]); d != nil {
			f.def = strings.Trim(d[1], `"`)
		}
		flags[m[2]] = f
	}
	if len(flags) < 20 {
		t.Fatalf("%s --help listed %d flags, want its whole flag set:\n%s", bin, len(flags), out)
	}
	return flags
}

// helpKinds maps pflag's type word to the table's kind and whether the
// flag is a slice; klog's severity, Level, traceLocation and moduleSpec
// are read as strings or ints.
var helpKinds = map[string]struct {
	kind       proxyversion.Kind
	repeatable bool
}{
	"": {proxyversion.KindBool, false}, "string": {proxyversion.KindString, false}, "strings": {proxyversion.KindString, true},
	"int": {proxyversion.KindInt, false}, "uint": {proxyversion.KindInt, false}, "Level": {proxyversion.KindInt, false},
	"duration": {proxyversion.KindDuration, false}, "float32": {proxyversion.KindFloat, false},
	"severity": {proxyversion.KindString, false}, "traceLocation": {proxyversion.KindString, false}, "moduleSpec": {proxyversion.KindString, false},
}

// computedDefaults are generated at start (a fresh UUID); the table leaves them "".
var computedDefaults = map[string]bool{"server-id": true, "agent-id": true}

// zeroDefaults are the defaults pflag does not print.
var zeroDefaults = map[string]bool{"": true, "0": true, "0s": true, "false": true}

// TestTablesMatchHelp compares every version's flag tables with its real
// binaries' --help: the same flags, kinds, list-ness, defaults and
// shorthands. A flag the table gives a version but its binary lacks would
// be rendered and crash-loop the server; this is where that shows.
func TestTablesMatchHelp(t *testing.T) {
	for _, v := range proxyversion.Versions {
		for _, bin := range []*proxyversion.Binary{v.Server, v.Agent} {
			t.Run(v.Name+"/"+bin.Name, func(t *testing.T) { matchHelp(t, bin, readHelp(t, tooltest.ProxyBin(t, v, bin.Name))) })
		}
	}
}

// TestFromHelpOnRealBinaries: each version's real proxy-server --help is
// recognised as that version, as the bootkube stage asks the image.
func TestFromHelpOnRealBinaries(t *testing.T) {
	for _, v := range proxyversion.Versions {
		t.Run(v.Name, func(t *testing.T) {
			out, _ := exec.Command(tooltest.ProxyBin(t, v, "proxy-server"), "--help").CombinedOutput()
			got, err := proxyversion.FromHelp(string(out))
			if err != nil || got != v {
				t.Fatalf("FromHelp(%s --help) = %v, %v; want %s", v.Name, got, err, v.Name)
			}
		})
	}
}

// TestFromHelpOfTheAgent: proxy-agent's --help given by mistake is named
// as such, by the flag that tells it, instead of listing every server flag
// it lacks; on each version's real agent.
func TestFromHelpOfTheAgent(t *testing.T) {
	for _, v := range proxyversion.Versions {
		t.Run(v.Name, func(t *testing.T) {
			out, _ := exec.Command(tooltest.ProxyBin(t, v, "proxy-agent"), "--help").CombinedOutput()
			_, err := proxyversion.FromHelp(string(out))
			want := "this is not proxy-server's --help (it looks like proxy-agent's: it has --proxy-server-host)"
			if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "lacks") {
				t.Fatalf("FromHelp(proxy-agent %s --help): %v; want %q", v.Name, err, want)
			}
		})
	}
}

func matchHelp(t *testing.T, bin *proxyversion.Binary, help map[string]helpFlag) {
	t.Helper()
	for name, h := range help {
		f, ok := bin.Flags[name]
		if !ok {
			t.Errorf("--%s is in --help but not in the table", name)
			continue
		}
		want, ok := helpKinds[h.typ]
		if !ok {
			t.Errorf("--%s: --help type %q is not in helpKinds", name, h.typ)
		} else if f.Kind != want.kind || f.Repeatable != want.repeatable {
			t.Errorf("--%s: table kind %v repeatable %v, --help type %q", name, f.Kind, f.Repeatable, h.typ)
		}
		if h.def != f.Default && !computedDefaults[name] && (h.def != "" || !zeroDefaults[f.Default]) {
			t.Errorf("--%s: table default %q, --help default %q", name, f.Default, h.def)
		}
		if h.short != "" && bin.Short[h.short] != name {
			t.Errorf("-%s: --help says it is --%s, table says --%s", h.short, name, bin.Short[h.short])
		}
	}
	for name := range bin.Flags {
		if _, ok := help[name]; !ok && !bin.Flags[name].Hidden {
			t.Errorf("--%s is in the table but not in --help", name)
		}
	}
}
