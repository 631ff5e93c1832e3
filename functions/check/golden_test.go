package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/result"
)

// goldenDir holds the lead's built overlays (kustomize output of overlays/*).
const goldenDir = "../../testdata/golden"

// TestGoldenOverlaysPassClean: every built overlay checks without a finding;
// sno (bootstrap-in-place) is empty and passes only with AllowEmpty.
func TestGoldenOverlaysPassClean(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no golden overlays in %s", goldenDir)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		t.Run(name, func(t *testing.T) {
			stream, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{AllowEmpty: name == "sno"}
			got, err := Check(stream, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range got {
				t.Errorf("[%s] %s", result.Rule(f), result.Line(f))
			}
			if name != "sno" {
				return
			}
			strict, err := Check(stream, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(strict) != 1 || result.Rule(strict[0]) != "no-server-pod" {
				t.Errorf("sno without AllowEmpty: want exactly no-server-pod, got %v", strict)
			}
		})
	}
}
