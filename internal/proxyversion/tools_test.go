package proxyversion_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestEveryVersionHasItsModule: each version's stand-in is the module
// tools/anp-<Name> (tools/build.sh derives the directory from the name),
// and tools/README.md's table gives its binaries that directory.
func TestEveryVersionHasItsModule(t *testing.T) {
	root := tooltest.RepoRoot()
	readme, err := os.ReadFile(filepath.Join(root, "tools/README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range proxyversion.Versions {
		dir := "anp-" + v.Name
		mod, err := os.ReadFile(filepath.Join(root, "tools", dir, "go.mod"))
		if err != nil {
			t.Errorf("%s has no stand-in module: %v", v.Name, err)
			continue
		}
		if !regexp.MustCompile(`(?m)^module \S+/tools/` + regexp.QuoteMeta(dir) + `$`).Match(mod) {
			t.Errorf("tools/%s/go.mod does not name its module .../tools/%s", dir, dir)
		}
		row := regexp.MustCompile("(?m)^\\| `proxy-server-" + regexp.QuoteMeta(v.Name) + "`, `proxy-agent-" +
			regexp.QuoteMeta(v.Name) + "` \\| `" + regexp.QuoteMeta(dir) + "/` \\|")
		if !row.Match(readme) {
			t.Errorf("tools/README.md has no table row for proxy-server-%s and proxy-agent-%s in %s/", v.Name, v.Name, dir)
		}
	}
}

// TestBuildScriptBuildsEveryVersion: tools/build.sh's default set, read
// with --print (it takes the versions from proxy-version --list), builds
// both binaries of every version from its tools/anp-<Name> module.
func TestBuildScriptBuildsEveryVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: tools/build.sh --print compiles the CLI with go run")
	}
	root := tooltest.RepoRoot()
	out, err := exec.Command(filepath.Join(root, "tools/build.sh"), "--print").CombinedOutput()
	if err != nil {
		t.Fatalf("tools/build.sh --print: %v\n%s", err, out)
	}
	lines := strings.Split(string(out), "\n")
	for _, v := range proxyversion.Versions {
		for _, bin := range []*proxyversion.Binary{v.Server, v.Agent} {
			want := bin.Name + "-" + v.Name + " tools/anp-" + v.Name + " "
			found := false
			for _, l := range lines {
				found = found || strings.HasPrefix(l, want)
			}
			if !found {
				t.Errorf("tools/build.sh --print has no line starting %q:\n%s", want, out)
			}
		}
	}
}
