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
// module resolves: the kube-apiserver's module (tools/kube-apiserver) or the
// pair's caller go.mod (tools/kas-caller/k8s-<minor>.mod) pins the pair's
// k8s.io/apiserver, and Go's resolution of it chose the pair's
// konnectivity-client, so the table's client is the one the test runs.
func TestPairsHoldWhatTheToolsPin(t *testing.T) {
	root := tooltest.RepoRoot()
	for _, p := range proxyversion.Pairs {
		if p.Proof == proxyversion.NotRun {
			continue
		}
		t.Run(p.String(), func(t *testing.T) {
			file, apiserver := "tools/kas-caller/k8s-"+p.Kubernetes+".mod", `(?m)^\s*k8s\.io/apiserver `
			if p.Proof == proxyversion.FullKubeAPIServer {
				// every staging module is replaced by its tag
				file, apiserver = "tools/kube-apiserver/go.mod", `(?m)^\s*k8s\.io/apiserver => k8s\.io/apiserver `
			}
			mod, err := os.ReadFile(filepath.Join(root, file))
			if err != nil {
				t.Fatalf("pair %s has no tools module: %v", p, err)
			}
			for what, re := range map[string]string{
				"k8s.io/apiserver " + p.APIServer: apiserver + regexp.QuoteMeta(p.APIServer) + `(\s|$)`,
				clientModule + " " + p.Client:     `(?m)^\s*` + regexp.QuoteMeta(clientModule+" "+p.Client) + `(\s|$)`,
			} {
				if !regexp.MustCompile(re).Match(mod) {
					t.Errorf("%s does not pin %s, which the table gives pair %s", file, what, p)
				}
			}
			if _, err := os.Stat(filepath.Join(root, strings.TrimSuffix(file, ".mod")+".sum")); err != nil {
				t.Errorf("%s has no sums beside it: %v", file, err)
			}
		})
	}
}

// TestFullKubeAPIServerIsStampedAsItsPair: tools/build.sh stamps the
// kube-apiserver with the version of the pair it plays, so `--version` and
// the figures name that pair.
func TestFullKubeAPIServerIsStampedAsItsPair(t *testing.T) {
	script, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "tools/build.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proxyversion.Pairs {
		if p.Proof != proxyversion.FullKubeAPIServer {
			continue
		}
		want := "gitVersion=v1" + strings.TrimPrefix(p.APIServer, "v0")
		if !strings.Contains(string(script), want) {
			t.Errorf("tools/build.sh does not stamp the kube-apiserver %s (pair %s)", want, p)
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
	for _, p := range proxyversion.CallerPairs() {
		want = append(want, p.Kubernetes)
	}
	slices.Sort(have)
	if !slices.Equal(have, want) {
		t.Errorf("tools/kas-caller has go.mod files for %v; the table's caller pairs are %v (add or remove k8s-<minor>.mod, or the Pair)", have, want)
	}
}

// TestBuildScriptBuildsEveryPair: tools/build.sh --print NAME builds the
// tool of every pair a test runs from that pair's module.
func TestBuildScriptBuildsEveryPair(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: tools/build.sh --print compiles the CLI with go run")
	}
	for _, p := range proxyversion.Pairs {
		want := map[proxyversion.Proof]string{
			proxyversion.FullKubeAPIServer: "kube-apiserver tools/kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver",
			proxyversion.ReleaseCaller:     fmt.Sprintf("%s tools/kas-caller . k8s-%s.mod", p.Tool(), p.Kubernetes),
		}[p.Proof]
		if want == "" {
			continue
		}
		out, err := exec.Command(filepath.Join(tooltest.RepoRoot(), "tools/build.sh"), "--print", p.Tool()).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != want {
			t.Errorf("tools/build.sh --print %s = %q, %v; want %q", p.Tool(), out, err, want)
		}
	}
}
