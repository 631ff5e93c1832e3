package proxyversion_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// clientModule is the konnectivity-client's module path in a go.mod.
const clientModule = "sigs.k8s.io/apiserver-network-proxy/konnectivity-client"

// TestPairsHoldWhatTheToolsPin: each pair a test runs is what its tools
// modules resolve: the pair's caller go.mod (tools/kas-caller/k8s-<minor>.mod)
// and its whole kube-apiserver's module (tools/<KubeAPIServerTool>) pin the
// pair's k8s.io/apiserver (and k8s.io/kubernetes), and Go's resolution chose
// the pair's konnectivity-client, so the table's client is the one tested;
// the whole kube-apiserver's module names it and the node tools as tools.
func TestPairsHoldWhatTheToolsPin(t *testing.T) {
	root := tooltest.RepoRoot()
	client := func(p proxyversion.Pair) string {
		return `(?m)^\s*` + regexp.QuoteMeta(clientModule+" "+p.Client) + `(\s|$)`
	}
	for _, p := range proxyversion.Pairs {
		want := map[string]map[string]string{} // file -> what -> pattern
		if p.Proof == proxyversion.ReleaseCaller {
			want["tools/kas-caller/k8s-"+p.Kubernetes+".mod"] = map[string]string{
				"k8s.io/apiserver " + p.APIServer: `(?m)^\s*k8s\.io/apiserver ` + regexp.QuoteMeta(p.APIServer) + `(\s|$)`,
				clientModule + " " + p.Client:     client(p),
			}
		}
		if p.KubeAPIServer != "" { // every staging module is replaced by its tag
			want["tools/"+p.KubeAPIServerTool()+"/go.mod"] = map[string]string{
				"k8s.io/kubernetes " + p.KubeAPIServer: `(?m)^\s*(require )?k8s\.io/kubernetes ` + regexp.QuoteMeta(p.KubeAPIServer) + `(\s|$)`,
				"k8s.io/apiserver => " + p.APIServer:   `(?m)^\s*k8s\.io/apiserver => k8s\.io/apiserver ` + regexp.QuoteMeta(p.APIServer) + `(\s|$)`,
				clientModule + " " + p.Client:          client(p),
			}
			// The node tools build from the same module: go mod tidy keeps
			// their dependencies' sums only for packages it names as tools.
			for _, c := range append([]string{"kube-apiserver"}, proxyversion.NodeComponents...) {
				want["tools/"+p.KubeAPIServerTool()+"/go.mod"]["tool k8s.io/kubernetes/cmd/"+c] = `(?m)^(tool )?\s*k8s\.io/kubernetes/cmd/` + regexp.QuoteMeta(c) + `$`
			}
		}
		for file, pins := range want {
			mod, err := os.ReadFile(filepath.Join(root, file))
			if err != nil {
				t.Errorf("pair %s has no tools module: %v", p, err)
				continue
			}
			for what, re := range pins {
				if !regexp.MustCompile(re).Match(mod) {
					t.Errorf("%s does not pin %s, which the table gives pair %s", file, what, p)
				}
			}
			if _, err := os.Stat(filepath.Join(root, strings.TrimSuffix(file, ".mod")+".sum")); err != nil {
				t.Errorf("%s has no sums beside it: %v", file, err)
			}
		}
	}
}

// TestCallerModulesArePairs: tools/kas-caller holds one k8s-<minor>.mod per
// pair the table proves with its caller and no other, since tools/build.sh
// builds one kas-caller-<minor> per file.
func TestCallerModulesArePairs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(tooltest.RepoRoot(), "tools/kas-caller/k8s-*.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var have, want []string
	for _, f := range files {
		have = append(have, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "k8s-"), ".mod"))
	}
	for _, p := range proxyversion.Pairs {
		if p.Proof == proxyversion.ReleaseCaller {
			want = append(want, p.Kubernetes)
		}
	}
	slices.Sort(have)
	if !slices.Equal(have, want) {
		t.Errorf("tools/kas-caller has go.mod files for %v; the table's caller pairs are %v (add or remove k8s-<minor>.mod, or the Pair)", have, want)
	}
}

// TestBuildScriptBuildsEveryPair: tools/build.sh --print NAME builds each
// tool of every pair a test runs from that pair's module, a kube-apiserver
// and its node tools (the real-node test's) stamped with the pair's version
// (`--version` and the figures name it).
func TestBuildScriptBuildsEveryPair(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: tools/build.sh --print compiles the CLI with go run")
	}
	for _, p := range proxyversion.Pairs {
		want := map[string]string{}
		if p.Proof == proxyversion.ReleaseCaller {
			want[p.Tool()] = fmt.Sprintf("%s tools/kas-caller . k8s-%s.mod", p.Tool(), p.Kubernetes)
		}
		if tool := p.KubeAPIServerTool(); tool != "" {
			want[tool] = fmt.Sprintf("%s tools/%s k8s.io/kubernetes/cmd/kube-apiserver stamped %s", tool, tool, p.KubeAPIServer)
			for _, c := range proxyversion.NodeComponents {
				want[p.NodeTool(c)] = fmt.Sprintf("%s tools/%s k8s.io/kubernetes/cmd/%s stamped %s", p.NodeTool(c), tool, c, p.KubeAPIServer)
			}
		}
		for tool, line := range want {
			out, err := exec.Command(filepath.Join(tooltest.RepoRoot(), "tools/build.sh"), "--print", tool).CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != line {
				t.Errorf("tools/build.sh --print %s = %q, %v; want %q", tool, out, err, line)
			}
		}
	}
}
