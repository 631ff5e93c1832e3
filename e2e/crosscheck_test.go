//go:build e2e

package e2e

import (
	"bytes"
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"

	bundlefn "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle"
	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
)

// acceptWindow is how long a binary must keep running to count as having
// accepted its flags; both binaries validate flags before anything else.
const acceptWindow = 3 * time.Second

// flagCase breaks one server or agent flag in the built bundle.
type flagCase struct {
	name    string
	agent   bool // the DaemonSet's container, else the server pod's
	mutate  func([]string) []string
	rule    string // the check rule that must flag it (severity error)
	refuses string // a substring of the binary's refusal; "" = the binary starts anyway
}

// TestCheckAgreesWithBinaries breaks the built bundle one flag at a time and
// asserts that check flags it with the expected rule and that the real binary,
// started from the broken manifest, refuses the same flags. Where the binary
// starts anyway the checker is stricter on purpose; the case says so.
func TestCheckAgreesWithBinaries(t *testing.T) {
	stream, err := kustbuild.Build("ipv4", kustbuild.Options{BootstrapIP: netip.MustParseAddr(ipv4.bootIP), Image: testImage, ProxyVersion: proxyVersion})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	root := shortRoot(t)
	renderInto(t, root, bundle.ModeHTTPConnect, ipv4)
	b := loadBundle(t, root)
	certDir := filepath.Join(root, bundle.DefaultCertDir)
	certs := readFiles(t, certDir, "ca.crt", "ca.key", "server.crt", "server.key", "agent.crt", "agent.key")
	secrets := b.secretDirs(t, t.TempDir())
	ns := newTopology(t, ipv4).boot

	cases := []flagCase{
		{name: "control server", mutate: keep},
		{name: "control agent", agent: true, mutate: keep},
		{name: "server-port with UDS", mutate: setFlag("--server-port", "8090"), rule: "server-port-with-uds", refuses: "server port should be set to 0 not 8090 for UDS"},
		{name: "server-ca-cert with UDS", mutate: addFlag("--server-ca-cert=/etc/konnectivity/ca.crt"), rule: "server-cert-with-uds", refuses: "server ca cert should not be set for UDS"},
		{name: "no UDS and no server-ca-cert", mutate: drop("--uds-name"), rule: "server-ca-cert-required", refuses: "server ca cert must be set when in TCP mode"},
		{name: "no cluster-cert", mutate: drop("--cluster-cert"), rule: "cluster-cert-required", refuses: "cannot have cluster cert empty when cluster key is set"},
		{name: "token auth with cluster-ca-cert", mutate: addFlag("--agent-namespace=openshift-bootstrap-konnectivity"), rule: "token-auth-with-cluster-ca", refuses: "--cluster-ca-cert can not be used when agent authentication is enabled"},
		{name: "token auth incomplete", mutate: chain(drop("--cluster-ca-cert"), addFlag("--agent-namespace=openshift-bootstrap-konnectivity")), rule: "token-auth-incomplete", refuses: "--agent-service-account cannot be empty when agent authentication is enabled"},
		{name: "unknown proxy strategy", mutate: setFlag("--proxy-strategies", "bogus"), rule: "proxy-strategy-unknown", refuses: "invalid proxy strategies"},
		{name: "invalid mode", mutate: setFlag("--mode", "tcp"), rule: "flag-value-invalid", refuses: "mode must be set to either 'grpc' or 'http-connect'"},
		{name: "reserved agent port", mutate: setFlag("--agent-port", "80"), rule: "port-out-of-range", refuses: "reserved port 80 for the agent port"},
		{name: "ephemeral health port", mutate: setFlag("--health-port", "60000"), rule: "port-out-of-range", refuses: "ephemeral port 60000 for the health port"},
		{name: "unknown server flag", mutate: addFlag("--no-such-flag=1"), rule: "unknown-flag", refuses: "unknown flag: --no-such-flag"},
		{name: "no cluster-ca-cert (server starts, agents unauthenticated)", mutate: drop("--cluster-ca-cert"), rule: "cluster-ca-cert-missing"},
		{name: "sync interval above cap", agent: true, mutate: setFlag("--sync-interval", "60s"), rule: "sync-interval-above-cap", refuses: "must be less than sync interval cap"},
		{name: "unknown agent identifier", agent: true, mutate: setFlag("--agent-identifiers", "zone=a"), rule: "agent-identifiers-invalid", refuses: "unknown address type: zone"},
		{name: "no agent ca-cert", agent: true, mutate: drop("--ca-cert"), rule: "agent-ca-cert-required", refuses: "failed to read CA cert"},
		{name: "agent port 0", agent: true, mutate: setFlag("--health-server-port", "0"), rule: "port-out-of-range", refuses: "health server port 0 must be greater than 0"},
		{name: "no agent cert nor key (agent starts; the server refuses it, see TestSecurity)", agent: true, mutate: drop2("--agent-cert", "--agent-key"), rule: "agent-cert-required"},
		{name: "agent key without cert", agent: true, mutate: drop("--agent-cert"), rule: "agent-cert-required", refuses: "cannot have agent cert empty when agent key is set"},
		{name: "unknown agent flag", agent: true, mutate: addFlag("--no-such-flag=1"), rule: "unknown-flag", refuses: "unknown flag: --no-such-flag"},
		{name: "agent keepalive below the server's 30s minimum (agent starts, server drops it)", agent: true, mutate: setFlag("--keepalive-time", "10s"), rule: "agent-keepalive-too-short"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runFlagCase(t, tc, stream, root, ns, secrets, certs, fmt.Sprintf("crosscheck-%02d", i))
		})
	}
}

// runFlagCase: check must report tc.rule for the broken bundle, and the real
// binary started from the broken manifest must refuse (or, for a stricter
// rule, start).
func runFlagCase(t *testing.T, tc flagCase, stream []byte, root, ns string, secrets map[string]string, certs map[string][]byte, procName string) {
	broken, pod := breakStream(t, stream, tc)
	findings, err := check.Check(broken, check.Options{CertFiles: certs})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	assertRule(t, findings, tc.rule)
	image := map[string]string{bundlefn.ServerCommand: tool(t, "proxy-server"), bundlefn.AgentCommand: tool(t, "proxy-agent")}
	h, err := mapContainer(pod.Spec, containerOf(tc), root, secrets, image)
	if err != nil {
		t.Fatal(err)
	}
	p := proctest.Start(t, proctest.Spec{NS: ns, Name: procName, LogDir: testDir(t), Argv: h.argv})
	exitErr, exited := p.Wait(acceptWindow)
	switch {
	case tc.refuses == "" && exited:
		t.Fatalf("binary exited (%v) although the case expects it to start:\n%s", exitErr, p.Tail(10))
	case tc.refuses == "" && tc.rule == "":
		t.Logf("control: check finds no error and the binary starts")
	case tc.refuses == "":
		t.Logf("binary starts with these flags; check rule %q is stricter than the binary", tc.rule)
	case !exited:
		t.Fatalf("binary still runs after %v; want it to refuse with %q", acceptWindow, tc.refuses)
	case exitErr == nil:
		t.Fatalf("binary exited 0; want a refusal with %q", tc.refuses)
	case !strings.Contains(p.Log(), tc.refuses):
		t.Fatalf("binary refused (%v) but not with %q:\n%s", exitErr, tc.refuses, p.Tail(10))
	}
}

// assertRule: rule "" means check finds no error at all (the control).
func assertRule(t *testing.T, fs framework.Results, rule string) {
	t.Helper()
	var rules []string
	for _, f := range fs {
		if f.Severity == framework.Error {
			rules = append(rules, result.Rule(f))
		}
		if result.Rule(f) == rule && f.Severity == framework.Error {
			return
		}
	}
	if rule == "" && len(rules) == 0 {
		return
	}
	t.Fatalf("check errors %v, want rule %q", rules, rule)
}

// breakStream mutates the server or agent container args in the built stream
// and returns the new stream with the mutated pod spec.
func breakStream(t *testing.T, stream []byte, tc flagCase) ([]byte, *corev1.Pod) {
	t.Helper()
	nodes, err := kio.FromBytes(stream)
	if err != nil {
		t.Fatal(err)
	}
	kind, path := "Pod", []string{"spec", "containers"}
	if tc.agent {
		kind, path = "DaemonSet", []string{"spec", "template", "spec", "containers"}
	}
	var target *kyaml.RNode
	for _, n := range nodes {
		if n.GetKind() == kind {
			target = n
		}
	}
	if target == nil {
		t.Fatalf("no %s in the built bundle", kind)
	}
	c, err := target.Pipe(kyaml.Lookup(path...), kyaml.MatchElement("name", containerOf(tc)))
	if err != nil || c == nil {
		t.Fatalf("no container in %s: %v", kind, err)
	}
	args, err := c.GetSlice("args")
	if err != nil {
		t.Fatal(err)
	}
	var strs []string
	for _, a := range args {
		strs = append(strs, fmt.Sprint(a))
	}
	if err := c.PipeE(kyaml.SetField("args", kyaml.NewListRNode(tc.mutate(strs)...))); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := (kio.ByteWriter{Writer: &out}).Write(nodes); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{}
	spec, err := target.Pipe(kyaml.Lookup(path[:len(path)-1]...))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(spec.MustString()), &pod.Spec); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), pod
}

// containerOf names the container a flag case breaks.
func containerOf(tc flagCase) string {
	if tc.agent {
		return hostlayout.AgentName
	}
	return hostlayout.ServerPodName
}

func keep(a []string) []string { return a }

func drop(name string) func([]string) []string {
	return func(a []string) []string { return dropFlags(a, name) }
}

func drop2(a, b string) func([]string) []string {
	return func(args []string) []string { return dropFlags(args, a, b) }
}

func addFlag(arg string) func([]string) []string {
	return func(a []string) []string { return append(append([]string{}, a...), arg) }
}

func setFlag(name, value string) func([]string) []string {
	return func(a []string) []string { return append(dropFlags(a, name), name+"="+value) }
}

func chain(fs ...func([]string) []string) func([]string) []string {
	return func(a []string) []string {
		for _, f := range fs {
			a = f(a)
		}
		return a
	}
}
