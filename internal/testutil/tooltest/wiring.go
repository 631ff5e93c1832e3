package tooltest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// execRewiring turns the container wiring the repository's kustomizations
// use into the exec wiring of the same pieces.
var execRewiring = strings.NewReplacer(
	"- container/config", "- function", // base/kustomization.yaml
	"- container/check", "- check",
	"base/container/config", "base/function", // overlays
	"base/container/check", "base/check",
)

// ExecWiredTree copies base/ and overlays/ into a temporary directory and
// rewires every overlay from the containerized function (base/container) to
// the exec function (base/function, base/check), the edit a user without a
// container runtime makes. It returns the copy's root.
func ExecWiredTree(tb testing.TB) string {
	tb.Helper()
	dst := tb.TempDir()
	for _, d := range []string{"base", "overlays"} {
		if err := os.CopyFS(filepath.Join(dst, d), os.DirFS(filepath.Join(RepoRoot(), d))); err != nil {
			tb.Fatal(err)
		}
	}
	for _, pattern := range []string{"base/kustomization.yaml", "overlays/*/kustomization.yaml", "overlays/*/config/kustomization.yaml"} {
		files, _ := filepath.Glob(filepath.Join(dst, pattern))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			out := execRewiring.Replace(string(data))
			if strings.Contains(out, "container/") {
				tb.Fatalf("%s still names the container wiring after rewiring: update tooltest.ExecWiredTree", f)
			}
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return dst
}
