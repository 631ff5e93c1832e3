package guidetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

var (
	binOnce sync.Once
	binDir  string // holds konnectivity-bundle built from this checkout
	binErr  error
)

// bin builds konnectivity-bundle once for every sandbox and returns its
// directory. Running the built command makes an integration test.
func bin(t *testing.T) string {
	t.Helper()
	tooltest.Integration(t, "builds the command and runs the guides with it")
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "kb-guidetest-bin-"); binErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, "konnectivity-bundle"), "./cmd/konnectivity-bundle")
		cmd.Dir = tooltest.RepoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("building konnectivity-bundle: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}
