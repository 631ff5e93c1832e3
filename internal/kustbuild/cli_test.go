package kustbuild

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/tooltest"
)

// kustomizeCLI runs the real kustomize binary with our binary on PATH (the
// exec wiring) and, when pluginHome is set, as KUSTOMIZE_PLUGIN_HOME (the
// legacy wiring). The environment is minimal so nothing leaks in.
type kustomizeCLI struct {
	bin, selfDir, pluginHome string
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
	return &kustomizeCLI{bin: bin, selfDir: dir, pluginHome: home}
}

func (k *kustomizeCLI) build(t testing.TB, dir string, opts Options, flags ...string) ([]byte, error) {
	cmd := exec.Command(k.bin, append([]string{"build"}, append(flags, dir)...)...)
	cmd.Env = []string{
		"PATH=" + k.selfDir + ":/usr/bin:/bin",
		"HOME=" + t.TempDir(),
		"KUSTOMIZE_PLUGIN_HOME=" + k.pluginHome,
		"KONNECTIVITY_BOOTSTRAP_IP=" + opts.BootstrapIP,
		"KONNECTIVITY_IMAGE=" + opts.Image,
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("kustomize stderr:\n%s", stderr.String())
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

// TestInProcessMatchesKustomizeCLI is the promise of `build`: for every
// overlay, the in-process output is byte-identical to the real kustomize CLI
// running our binary as an exec KRM function.
func TestInProcessMatchesKustomizeCLI(t *testing.T) {
	cli := newKustomizeCLI(t)
	for _, overlay := range Overlays() {
		t.Run(overlay, func(t *testing.T) {
			opts := inputs(t, overlay)
			want, err := cli.build(t, filepath.Join(tooltest.RepoRoot(), "overlays", overlay), opts, "--enable-alpha-plugins", "--enable-exec")
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

// TestExecWithoutEnableExecDropsBundle pins the kustomize trap the README
// warns about: without --enable-exec, the exec function is skipped silently
// and the build "succeeds" with no bundle at all.
func TestExecWithoutEnableExecDropsBundle(t *testing.T) {
	cli := newKustomizeCLI(t)
	out, err := cli.build(t, filepath.Join(tooltest.RepoRoot(), "overlays", "ipv4"), inputs(t, "ipv4"), "--enable-alpha-plugins")
	if err != nil {
		t.Fatalf("kustomize now fails instead of dropping the function (%v): update README and this test", err)
	}
	if strings.Contains(string(out), "proxy-server") {
		t.Fatalf("kustomize ran the exec function without --enable-exec; update README and this test:\n%s", out)
	}
}
