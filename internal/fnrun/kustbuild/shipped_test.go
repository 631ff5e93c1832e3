package kustbuild

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestShippedOverlaysHaveGoldenFiles: the overlays embed.go lists one by
// one are exactly those with a golden file, which is the list make diff,
// make verify and the CI script of docs/ci.md iterate over. A user's
// overlay under overlays/ is in neither list.
func TestShippedOverlaysHaveGoldenFiles(t *testing.T) {
	goldens, err := filepath.Glob(filepath.Join(tooltest.RepoRoot(), "testdata", "golden", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range goldens {
		names = append(names, strings.TrimSuffix(filepath.Base(g), ".yaml"))
	}
	if !slices.Equal(names, Overlays()) {
		t.Fatalf("golden files %v, embedded overlays %v: add both or neither (embed.go lists the shipped overlays)", names, Overlays())
	}
}
