//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// renderInto runs the real `konnectivity-bundle render` for mode and family
// into root. http-connect uses the shipped overlay as is; grpc uses an overlay
// written here that patches the family's config the way overlays/ipv6 does.
func renderInto(t *testing.T, root, mode string, fam family) {
	t.Helper()
	overlay := fam.name
	if mode != bundle.ModeHTTPConnect {
		overlay = modeOverlay(t, mode, fam)
	}
	out, err := exec.Command(cli(t), "render", "--overlay", overlay, "--root", root,
		"--bootstrap-ip", fam.bootIP, "--image", testImage).CombinedOutput()
	if err != nil {
		t.Fatalf("konnectivity-bundle render --overlay %s: %v\n%s", overlay, err, out)
	}
	t.Logf("render --overlay %s:\n%s", overlay, out)
}

// modeOverlay writes an overlay that takes the family's config and sets spec.mode.
func modeOverlay(t *testing.T, mode string, fam family) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "overlay-"+mode)
	config := filepath.Join(dir, "config")
	// The family's config: overlays/<family>/config where the overlay patches
	// one, else the base config with its function wiring.
	familyConfig := filepath.Join(repoRoot(), "overlays", fam.name, "config")
	if _, err := os.Stat(familyConfig); err != nil {
		familyConfig = filepath.Join(repoRoot(), "base", "function")
	}
	rel, err := filepath.Rel(config, familyConfig) // kustomize refuses absolute resource paths
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string][]byte{"kustomization.yaml": []byte(
		"apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ngenerators:\n- config\n")})
	writeFiles(t, config, map[string][]byte{
		"kustomization.yaml": []byte(fmt.Sprintf(`apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- %s
patches:
- path: config-patch.yaml
`, rel)),
		"config-patch.yaml": []byte(tooltest.ConfigPatch("mode: " + mode)),
	})
	return dir
}
