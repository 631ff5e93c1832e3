//go:build e2e

package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
)

// deepCheckoutEnv names, in a test run from the deep copy, the copy's
// directory, so TestNodeDirFits can tell it runs there.
const deepCheckoutEnv = "KB_DEEP_CHECKOUT"

// TestNodeDirFits: the real node's directory is short and outside the
// checkout whatever the checkout's depth, so every socket the node makes
// (nodeSockets) fits. Run directly it uses this checkout; TestDeepCheckout
// runs it again from a copy over 100 bytes deep.
func TestNodeDirFits(t *testing.T) {
	checkout := repoRoot()
	if deep := os.Getenv(deepCheckoutEnv); deep != "" && checkout != deep {
		t.Fatalf("%s=%s, but this test runs from %s", deepCheckoutEnv, deep, checkout)
	}
	p := newNodePaths(nodeDir(t))
	if shortroot.Under(p.dir, checkout) {
		t.Fatalf("the node's directory %s is inside the checkout %s", p.dir, checkout)
	}
	for _, s := range append([]string{p.socket}, nodeSockets...) {
		if err := shortroot.Fits(p.dir, strings.TrimPrefix(s, p.dir+"/")); err != nil {
			t.Error(err)
		}
	}
	t.Logf("checkout %s (%d bytes), node directory %s", checkout, len(checkout), p.dir)
}

// TestDeepCheckout copies this checkout to a path over 100 bytes deep and
// runs from there a real tunnel (proxy-server and proxy-agent as rendered,
// through tunneltest) and the real node's path logic: a long checkout
// path, as on a CI runner, must not push a socket over the limit.
func TestDeepCheckout(t *testing.T) {
	if os.Getenv(deepCheckoutEnv) != "" {
		t.Skip("skipping: already inside the deep copy")
	}
	deep := shortroot.DeepDir(t, "konnectivity-bundle")
	copyCheckout(t, repoRoot(), deep)
	t.Logf("the copy: %s (%d bytes)", deep, len(deep))
	tools := filepath.Dir(tool(t, "proxy-server"))
	for _, run := range []struct{ pkg, test string }{
		{"./internal/diagnostics/egressprobe", "TestProbeAgainstRealServerAndAgent"},
		{"./e2e", "TestNodeDirFits"},
	} {
		t.Run(run.test, func(t *testing.T) {
			cmd := exec.Command("go", "test", "-tags", "e2e", "-count=1", "-v", "-run", "^"+run.test+"$", run.pkg)
			cmd.Dir = deep
			cmd.Env = append(os.Environ(), "PWD="+deep, deepCheckoutEnv+"="+deep, "KB_TOOLS_BIN="+tools, "KB_REQUIRE_TOOLS=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go test -run %s %s in %s: %v\n%s", run.test, run.pkg, deep, err, out)
			}
			if !strings.Contains(string(out), "--- PASS: "+run.test+" ") || strings.Contains(string(out), "--- SKIP") {
				t.Fatalf("%s did not run to a pass in the deep copy (a skip is no pass here):\n%s", run.test, out)
			}
		})
	}
}

// copyCheckout copies the checkout's files to dst, leaving out what git
// ignores at the top (build outputs, built tools) and .git.
func copyCheckout(t *testing.T, src, dst string) {
	t.Helper()
	skip := []string{".git", "_output", "bin", "plugins", filepath.Join("tools", "bin")}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if slices.Contains(skip, rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, info.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatalf("copying the checkout to %s: %v", dst, err)
	}
}
