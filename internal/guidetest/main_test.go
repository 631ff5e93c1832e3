package guidetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// binDir holds konnectivity-bundle built once from this checkout for every
// sandbox.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kb-guidetest-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "konnectivity-bundle"), "./cmd/konnectivity-bundle")
	cmd.Dir = tooltest.RepoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building konnectivity-bundle: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
