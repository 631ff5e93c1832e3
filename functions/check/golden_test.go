package check

import (
	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
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
			for _, f := range withoutVersionNotes(got) {
				t.Errorf("[%s] %s", result.Rule(f), result.Text(f))
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

// withoutVersionNotes drops the info a bundle for a proxy without the dial
// bound always carries (rule backend-dial-timeout-unavailable): the golden
// overlays are built for an OpenShift 4.20 image, so v0.28.
func withoutVersionNotes(fs framework.Results) framework.Results {
	var out framework.Results
	for _, f := range fs {
		if f.Severity == framework.Info && result.Rule(f) == "backend-dial-timeout-unavailable" {
			continue
		}
		out = append(out, f)
	}
	return out
}
