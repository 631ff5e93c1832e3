package shortroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DeepMin is how long a path DeepDir makes is at least: deeper than the
// checkouts that used to break socket paths (a CI runner's
// /home/runner/work/<repo>/<repo> with its _output/... below).
const DeepMin = 110

// DeepDir makes, inside a test's temporary directory, a directory whose
// path is at least DeepMin bytes long, ending in name.
func DeepDir(tb testing.TB, name string) string {
	tb.Helper()
	dir := tb.TempDir()
	for len(dir)+len(name)+1 < DeepMin {
		dir = filepath.Join(dir, "a-deliberately-deep-checkout")
	}
	dir = filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Under reports whether path is dir or inside it.
func Under(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
