//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// init keeps the main goroutine on the main thread, so no inNetns goroutine
// can ever switch the main thread (which the runtime cannot retire) into a
// test namespace.
func init() { runtime.LockOSThread() }

// TestMain refuses to run without root: the suite needs network namespaces,
// and passing silently without them would prove nothing.
func TestMain(m *testing.M) {
	if os.Geteuid() != 0 {
		fmt.Fprintln(os.Stderr, "e2e: must run as root (it creates network namespaces and veth pairs): sudo go test -tags e2e ./e2e/...")
		os.Exit(1)
	}
	sweepStaleNetns()
	// The commands under test look in $KUBECONFIG when no --kubeconfig is
	// given (internal/intake/kuberead.Find): the developer's must not leak in.
	os.Unsetenv("KUBECONFIG")
	code := m.Run()
	fmt.Print(figures.String())
	if cliDir != "" {
		os.RemoveAll(cliDir)
	}
	os.Exit(code)
}

// repoRoot is the main module's directory (the e2e package's parent).
func repoRoot() string {
	wd, _ := os.Getwd()
	return filepath.Dir(wd)
}

// kasPair is the release pair whose kube-apiserver the suite runs: the one
// KB_PAIR names by its Kubernetes minor (make releases runs the tunnel cases
// once per pair with a whole kube-apiserver), else the one make test runs
// whole (internal/proxyversion.Pairs, FullKubeAPIServer).
var kasPair = func() proxyversion.Pair {
	name := os.Getenv("KB_PAIR")
	for _, p := range proxyversion.Pairs {
		if name == "" && p.Proof == proxyversion.FullKubeAPIServer {
			return p
		}
	}
	p, err := proxyversion.LookupPair(name)
	if err == nil && p.KubeAPIServer == "" {
		err = fmt.Errorf("pair %s has no whole kube-apiserver in the tools (its KubeAPIServer is empty)", p)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: KB_PAIR=%s: %v\n", name, err)
		os.Exit(2)
	}
	return p
}()

// proxyVersion is the proxy the suite renders for and runs: the one
// KB_PROXY_VERSION names (make e2e runs the tunnel cases once per
// supported version), else KB_PAIR's family, else the newest.
var proxyVersion = func() *proxyversion.Version {
	name := os.Getenv("KB_PROXY_VERSION")
	if name == "" && os.Getenv("KB_PAIR") != "" {
		return kasPair.Proxy()
	}
	if name == "" {
		return proxyversion.Newest
	}
	v, err := proxyversion.Lookup(name)
	if err == nil && os.Getenv("KB_PAIR") != "" && v != kasPair.Proxy() {
		err = fmt.Errorf("pair %s (KB_PAIR) ships proxy %s, not %s", kasPair, kasPair.Proxy(), v)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: KB_PROXY_VERSION: %v\n", err)
		os.Exit(2)
	}
	return v
}()

// tool returns the path of a built real component (see tooltest.Bin: a
// missing one skips with the command that builds it, or fails under CI);
// proxy-server and proxy-agent are those of proxyVersion, kube-apiserver
// and the node tools (kubelet, ...) the pair's, of its minor.
func tool(t testing.TB, name string) string {
	t.Helper()
	if name == "proxy-server" || name == "proxy-agent" {
		return tooltest.ProxyBin(t, proxyVersion, name)
	}
	if name == "kube-apiserver" {
		return tooltest.Bin(t, kasPair.KubeAPIServerTool())
	}
	if slices.Contains(proxyversion.NodeComponents, name) {
		return tooltest.Bin(t, kasPair.NodeTool(name))
	}
	return tooltest.Bin(t, name)
}

var (
	cliOnce sync.Once
	cliDir  string
	cliPath string
	cliErr  error
)

// cli builds ./cmd/konnectivity-bundle once per run, so the suite always tests
// the current source.
func cli(t testing.TB) string {
	t.Helper()
	cliOnce.Do(func() {
		cliDir, cliErr = os.MkdirTemp("", "kb-e2e-cli")
		if cliErr != nil {
			return
		}
		cliPath = filepath.Join(cliDir, "konnectivity-bundle")
		out, err := exec.Command("go", "build", "-C", repoRoot(), "-o", cliPath, "./cmd/konnectivity-bundle").CombinedOutput()
		if err != nil {
			cliErr = fmt.Errorf("go build ./cmd/konnectivity-bundle: %v\n%s", err, out)
		}
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	return cliPath
}

var testDirs sync.Map

// testDir is one scratch directory per test for logs and data; short, so the
// paths stay readable in logs.
func testDir(t *testing.T) string {
	if d, ok := testDirs.Load(t); ok {
		return d.(string)
	}
	d := t.TempDir()
	testDirs.Store(t, d)
	return d
}
