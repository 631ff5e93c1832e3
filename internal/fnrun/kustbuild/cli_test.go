package kustbuild

import (
	"bytes"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// kustomizeCLI runs the real kustomize binary with a minimal environment so
// nothing leaks in: for the exec and legacy wirings, our binary on PATH and
// in KUSTOMIZE_PLUGIN_HOME; for the container wiring, only a docker CLI.
type kustomizeCLI struct {
	bin, path, pluginHome string
	extraEnv              []string
}

func newKustomizeCLI(t testing.TB) *kustomizeCLI {
	bin := tooltest.Bin(t, "kustomize")
	dir := t.TempDir()
	self := filepath.Join(dir, "konnectivity-bundle")
	if err := os.Symlink(selfBinary(t), self); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "plugins")
	plugin := filepath.Join(home, "bundle.konnectivity.io", "v1alpha1", "konnectivitybundle")
	if err := os.MkdirAll(plugin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(plugin, "KonnectivityBundle")); err != nil {
		t.Fatal(err)
	}
	return &kustomizeCLI{bin: bin, path: dir + ":/usr/bin:/bin", pluginHome: home}
}

// newContainerKustomizeCLI runs kustomize with nothing of ours on PATH and
// no plugin directory: only a docker that is podman (podman-docker's
// /usr/bin/docker), holding the image built from this checkout.
func newContainerKustomizeCLI(t testing.TB) *kustomizeCLI {
	bin := tooltest.Bin(t, "kustomize")
	podmantest.BundleImage(t)
	path := podmantest.DockerShim(t) + ":/usr/bin:/bin"
	for _, d := range filepath.SplitList(path) {
		if _, err := os.Stat(filepath.Join(d, "konnectivity-bundle")); err == nil {
			t.Fatalf("%s/konnectivity-bundle exists: the container wiring test must not find the binary on PATH", d)
		}
	}
	var extra []string
	for _, kv := range podmantest.Env(t) {
		if strings.HasPrefix(kv, "CONTAINERS_") {
			extra = append(extra, kv)
		}
	}
	return &kustomizeCLI{bin: bin, path: path, pluginHome: t.TempDir(), extraEnv: extra}
}

// ipText is addr as the environment variable carries it; "" when unset.
func ipText(addr netip.Addr) string {
	if !addr.IsValid() {
		return ""
	}
	return addr.String()
}

func (k *kustomizeCLI) build(t testing.TB, dir string, opts Options, flags ...string) ([]byte, error) {
	cmd := exec.Command(k.bin, append([]string{"build"}, append(flags, dir)...)...)
	cmd.Env = append([]string{
		"PATH=" + k.path,
		"HOME=" + t.TempDir(),
		"KUSTOMIZE_PLUGIN_HOME=" + k.pluginHome,
		"KONNECTIVITY_BOOTSTRAP_IP=" + ipText(opts.BootstrapIP),
		"KONNECTIVITY_IMAGE=" + opts.Image,
		proxyversion.EnvProxyVersion + "=" + proxyversion.EnvName(proxyversion.WithEnv(func(string) string { return "" }, opts.ProxyVersion)),
	}, k.extraEnv...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("kustomize stderr:\n%s", stderr.String())
		err = fmt.Errorf("%w: %s", err, stderr.String())
	}
	return out, err
}

var (
	selfOnce sync.Once
	selfPath string
	selfDir  string
)

// selfBinary builds cmd/konnectivity-bundle once per test process.
func selfBinary(t testing.TB) string {
	selfOnce.Do(func() {
		var err error
		if selfDir, err = os.MkdirTemp("", "kustbuild-test-"); err != nil {
			t.Fatal(err)
		}
		selfPath = tooltest.BuildSelf(t, selfDir)
	})
	if selfPath == "" {
		t.Fatal("building konnectivity-bundle failed earlier in this run")
	}
	return selfPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if selfDir != "" {
		os.RemoveAll(selfDir)
	}
	os.Exit(code)
}

// TestContainerWiringMatchesInProcess is the promise of the overlays and of
// `build`: every overlay, built by the real kustomize CLI with
// --enable-alpha-plugins alone, runs the functions from the image
// (base/container) and is byte-identical to the in-process build.
func TestContainerWiringMatchesInProcess(t *testing.T) {
	cli := newContainerKustomizeCLI(t)
	compareOverlays(t, cli, filepath.Join(tooltest.RepoRoot(), "overlays"), "--enable-alpha-plugins")
}

// TestExecWiringMatchesInProcess: the same overlays rewired to the exec
// function (base/function, base/check) build the same bytes with
// --enable-alpha-plugins --enable-exec and the binary on PATH.
func TestExecWiringMatchesInProcess(t *testing.T) {
	cli := newKustomizeCLI(t)
	compareOverlays(t, cli, filepath.Join(tooltest.ExecWiredTree(t), "overlays"), "--enable-alpha-plugins", "--enable-exec")
}

func compareOverlays(t *testing.T, cli *kustomizeCLI, overlays string, flags ...string) {
	for _, overlay := range Overlays() {
		t.Run(overlay, func(t *testing.T) {
			opts := inputs(t, overlay)
			want, err := cli.build(t, filepath.Join(overlays, overlay), opts, flags...)
			if err != nil {
				t.Fatalf("kustomize build: %v", err)
			}
			got, err := Build(overlay, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("in-process build differs from the kustomize CLI:\n%s", unifiedDiff(t, want, got))
			}
			if overlay != "sno" && !bytes.Contains(want, []byte("proxy-server")) {
				t.Errorf("kustomize built no server pod: the function did not run")
			}
		})
	}
}

// TestLegacyPluginWiring builds base/plugin with --enable-alpha-plugins only:
// kustomize runs the binary through its legacy exec plugin path, and the
// bundle is the same as the exec function's.
func TestLegacyPluginWiring(t *testing.T) {
	cli := newKustomizeCLI(t)
	opts := inputs(t, "ipv4")
	got, err := cli.build(t, filepath.Join(tooltest.RepoRoot(), "base", "plugin"), opts, "--enable-alpha-plugins")
	if err != nil {
		t.Fatalf("kustomize build --enable-alpha-plugins base/plugin: %v", err)
	}
	want, err := Build("", opts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("legacy plugin output differs from the default overlay:\n%s", unifiedDiff(t, want, got))
	}
}

// TestExecWithoutEnableExecDropsBundle pins the kustomize trap README.md and docs/kustomize.md
// warn about: without --enable-exec, the exec function is skipped silently
// and the build "succeeds" with no bundle at all.
func TestExecWithoutEnableExecDropsBundle(t *testing.T) {
	cli := newKustomizeCLI(t)
	out, err := cli.build(t, filepath.Join(tooltest.ExecWiredTree(t), "overlays", "ipv4"), inputs(t, "ipv4"), "--enable-alpha-plugins")
	if err != nil {
		t.Fatalf("kustomize now fails instead of dropping the function (%v): update README.md, docs/kustomize.md and this test", err)
	}
	if strings.Contains(string(out), "proxy-server") {
		t.Fatalf("kustomize ran the exec function without --enable-exec; update README.md, docs/kustomize.md and this test:\n%s", out)
	}
}

// TestEveryWiringPassesTheProxyVersion: with the placeholder image, which
// names no version, KONNECTIVITY_PROXY_VERSION alone must reach the
// function through each wiring (the container's envs list, the exec
// function's and the legacy plugin's inherited environment), as the
// kustomize command of docs/kustomize.md relies on.
func TestEveryWiringPassesTheProxyVersion(t *testing.T) {
	opts := Options{BootstrapIP: netip.MustParseAddr("192.0.2.10"), ProxyVersion: proxyversion.V028}
	wirings := []struct {
		name  string
		cli   func(testing.TB) *kustomizeCLI
		dir   func(testing.TB) string
		flags []string
	}{
		{"container", newContainerKustomizeCLI, func(testing.TB) string { return filepath.Join(tooltest.RepoRoot(), "overlays", "ipv4") }, []string{"--enable-alpha-plugins"}},
		{"exec", newKustomizeCLI, func(t testing.TB) string { return filepath.Join(tooltest.ExecWiredTree(t), "overlays", "ipv4") }, []string{"--enable-alpha-plugins", "--enable-exec"}},
		{"legacy", newKustomizeCLI, func(testing.TB) string { return filepath.Join(tooltest.RepoRoot(), "base", "plugin") }, []string{"--enable-alpha-plugins"}},
	}
	for _, w := range wirings {
		t.Run(w.name, func(t *testing.T) {
			out, err := w.cli(t).build(t, w.dir(t), opts, w.flags...)
			if err != nil {
				t.Fatalf("kustomize build with only KONNECTIVITY_PROXY_VERSION naming the version: %v", err)
			}
			if want := "bundle.konnectivity.io/proxy-version: v0.28"; !bytes.Contains(out, []byte(want)) {
				t.Errorf("the bundle lacks %q: the variable did not reach the function", want)
			}
		})
	}
}
