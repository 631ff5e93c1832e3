package tunneltest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// ModeOverlay writes a kustomization directory that is the default bundle
// with spec.mode set (grpc or http-connect), for New.
func ModeOverlay(t *testing.T, mode string) string {
	t.Helper()
	dir := t.TempDir()
	base, err := filepath.Rel(filepath.Join(dir, "config"), filepath.Join(tooltest.RepoRoot(), "base", "function"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ngenerators:\n- config\n",
		"config/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- " + base + "\n" +
			"patches:\n- path: config-patch.yaml\n",
		"config/config-patch.yaml": tooltest.ConfigPatch("mode: " + mode),
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
