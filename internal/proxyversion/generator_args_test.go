package proxyversion_test

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// argProblems lists every way argv departs from what bin accepts: flags it
// does not have (it exits), values it cannot parse or does not allow (it
// exits), and flags given twice that are not lists (it keeps only the last,
// so one of them is silently dropped).
func argProblems(bin *proxyversion.Binary, argv []string) []string {
	c := bin.Parse(argv)
	var out []string
	for _, u := range c.Unknown {
		out = append(out, fmt.Sprintf("%s has no flag --%s", bin.Name, strings.TrimPrefix(u.Name, "-")))
	}
	for _, u := range c.Missing {
		out = append(out, fmt.Sprintf("--%s needs a value and is the last argument", u.Name))
	}
	given := map[string]int{}
	for _, u := range c.Uses {
		f := bin.Flags[u.Name]
		if given[u.Name]++; given[u.Name] == 2 && !f.Repeatable {
			out = append(out, fmt.Sprintf("--%s is given more than once; %s keeps only the last", u.Name, bin.Name))
		}
		if msg := f.Kind.ParseError(u.Value); msg != "" {
			out = append(out, fmt.Sprintf("--%s=%q is not %s", u.Name, u.Value, msg))
		} else if !f.Allows(u.Value) {
			out = append(out, fmt.Sprintf("--%s=%q is not one of %q", u.Name, u.Value, f.Allowed))
		}
	}
	return out
}

// overlayInputs are the runtime values each shipped overlay is built with
// (documentation addresses; upi pins its own bootstrap IP and image), and
// whether it deploys the tunnel at all (sno, bootstrap-in-place, does not).
var overlayInputs = map[string]struct {
	opts   kustbuild.Options
	tunnel bool
}{
	"ipv4":      {kustbuild.Options{BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "example.com/anp:test"}, true},
	"ipv6":      {kustbuild.Options{BootstrapIP: netip.MustParseAddr("2001:db8::10"), Image: "example.com/anp:test"}, true},
	"dualstack": {kustbuild.Options{BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "example.com/anp:test"}, true},
	// upi names its own proxy version, which wins over --proxy-version.
	"upi": {kustbuild.Options{}, true},
	"sno": {kustbuild.Options{BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "example.com/anp:test"}, false},
}

// TestGeneratorArgsMatchTable builds every shipped overlay for every proxy
// version and holds the generator's proxy-server and proxy-agent command
// lines (serverArgs and agentArgs) to the tables of the version the bundle
// says it targets, the tables check uses: a flag the binary lacks, a value
// it refuses or a flag given twice fails here, not on a bootstrap node.
func TestGeneratorArgsMatchTable(t *testing.T) {
	for _, overlay := range kustbuild.Overlays() {
		for _, v := range proxyversion.Versions {
			t.Run(overlay+"/"+v.Name, func(t *testing.T) { matchOverlayArgs(t, overlay, v) })
		}
	}
}

func matchOverlayArgs(t *testing.T, overlay string, v *proxyversion.Version) {
	in, ok := overlayInputs[overlay]
	if !ok {
		t.Fatalf("overlay %s has no inputs: add it to overlayInputs", overlay)
	}
	in.opts.Getenv = func(string) string { return "" }
	in.opts.ProxyVersion = v
	out, err := kustbuild.Build(overlay, in.opts)
	if err != nil {
		t.Fatal(err)
	}
	commands, target := commandLines(t, out)
	if in.tunnel && target == nil {
		t.Fatalf("the bundle names no proxy version (%s annotation)", proxyversion.AnnotationProxyVersion)
	}
	for _, bin := range []*proxyversion.Binary{v.Server, v.Agent} {
		if target != nil {
			bin = target.Running([]string{bin.Name})
		}
		argvs := commands[bin.Name]
		if !in.tunnel {
			if len(argvs) != 0 {
				t.Errorf("%s deploys no tunnel, yet runs %s: %q", overlay, bin.Name, argvs)
			}
			continue
		}
		if len(argvs) != 1 {
			t.Fatalf("want exactly one container running %s, got %d", bin.Name, len(argvs))
		}
		argv := argvs[0]
		if len(bin.Parse(argv).Uses) == 0 {
			t.Fatalf("%s runs with no flags at all: %q", bin.Name, argv)
		}
		for _, p := range argProblems(bin, argv) {
			t.Errorf("%s: %s\n  command line: %q", bin.Name, p, argv)
		}
	}
}

// commandLines returns command+args of every container in the build's Pods
// and DaemonSets, by the basename of the binary it runs, and the version
// the workloads' annotation names.
func commandLines(t *testing.T, stream []byte) (map[string][][]string, *proxyversion.Version) {
	t.Helper()
	nodes, err := kio.FromBytes(stream)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][][]string{}
	var target *proxyversion.Version
	for _, n := range nodes {
		if k := n.GetKind(); k != "Pod" && k != "DaemonSet" {
			continue
		}
		if name := n.GetAnnotations()[proxyversion.AnnotationProxyVersion]; name != "" {
			if target, err = proxyversion.Lookup(name); err != nil {
				t.Fatalf("%s %s: %v", n.GetKind(), n.GetName(), err)
			}
		}
		raw, err := n.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var o struct {
			Spec struct {
				corev1.PodSpec
				Template corev1.PodTemplateSpec `json:"template"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatalf("%s %s: %v", n.GetKind(), n.GetName(), err)
		}
		for _, c := range append(o.Spec.Containers, o.Spec.Template.Spec.Containers...) {
			argv := append(append([]string{}, c.Command...), c.Args...)
			for _, bin := range []*proxyversion.Binary{proxyversion.Newest.Server, proxyversion.Newest.Agent} {
				if bin.Runs(argv) {
					out[bin.Name] = append(out[bin.Name], argv)
				}
			}
		}
	}
	return out, target
}

// TestArgProblemsCatchesBadArgs feeds the validation above command lines
// that break the table one way each, so a generator that ever writes such a
// flag would fail TestGeneratorArgsMatchTable.
func TestArgProblemsCatchesBadArgs(t *testing.T) {
	cases := []struct {
		name string
		bin  *proxyversion.Binary
		args []string
		want string // a substring of the one problem, "" for none
	}{
		{"valid", proxyversion.V036.Server, []string{"--mode=grpc", "--agent-port=8091", "--keepalive-time=30s"}, ""},
		{"unknown flag", proxyversion.V036.Server, []string{"--uds-path=/x.sock"}, "proxy-server has no flag --uds-path"},
		{"agent flag on the server", proxyversion.V036.Server, []string{"--proxy-server-host=192.0.2.10"}, "proxy-server has no flag --proxy-server-host"},
		{"klog underscore spelling", proxyversion.V036.Agent, []string{"--log_file=/tmp/a"}, "proxy-agent has no flag --log_file"},
		{"int that is not", proxyversion.V036.Server, []string{"--agent-port=eighty"}, `--agent-port="eighty" is not an integer`},
		{"duration without unit", proxyversion.V036.Agent, []string{"--keepalive-time=30"}, `--keepalive-time="30" is not a duration`},
		{"bool that is not", proxyversion.V036.Server, []string{"--delete-existing-uds-file=yes"}, "is not a boolean"},
		{"mode not allowed", proxyversion.V036.Server, []string{"--mode=tcp"}, `--mode="tcp" is not one of`},
		{"strategy not allowed", proxyversion.V036.Server, []string{"--proxy-strategies=default,desthost"}, `--proxy-strategies="default,desthost" is not one of`},
		{"given twice", proxyversion.V036.Agent, []string{"--sync-interval=1s", "--sync-interval=5s"}, "--sync-interval is given more than once"},
		{"a list may repeat", proxyversion.V036.Server, []string{"--cipher-suites=TLS_AES_128_GCM_SHA256", "--cipher-suites=TLS_AES_256_GCM_SHA384"}, ""},
		{"value missing", proxyversion.V036.Agent, []string{"--ca-cert=/c", "--proxy-server-port"}, "--proxy-server-port needs a value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := argProblems(tc.bin, append([]string{tc.bin.Name}, tc.args...))
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("want no problems, got %q", got)
			case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
				t.Errorf("want one problem containing %q, got %q", tc.want, got)
			}
		})
	}
}
