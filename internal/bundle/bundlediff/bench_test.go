package bundlediff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/manifest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// BenchmarkCompareOverlays parses and compares two golden overlays, the
// work `make diff` does per overlay after the build.
func BenchmarkCompareOverlays(b *testing.B) {
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "testdata", "golden", name+".yaml"))
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	a, u := read("ipv4"), read("upi")
	for b.Loop() {
		oa, err := manifest.Parse(a)
		if err != nil {
			b.Fatal(err)
		}
		ou, err := manifest.Parse(u)
		if err != nil {
			b.Fatal(err)
		}
		if Compare("a", oa, "b", ou).Equal() {
			b.Fatal("ipv4 and upi compare equal")
		}
	}
}
