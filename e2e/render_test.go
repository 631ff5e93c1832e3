//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// renderInto runs the real `konnectivity-bundle render` for mode and family
// into root. The version's default mode (proxyversion.Version.DefaultMode) uses the
// shipped overlay as is; the other mode uses an overlay written here that
// patches the family's config the way overlays/ipv6 does.
func renderInto(t *testing.T, root, mode string, fam family) {
	t.Helper()
	overlay := fam.name
	if mode != proxyVersion.DefaultMode {
		overlay = modeOverlay(t, mode, fam)
	}
	out, err := exec.Command(cli(t), "render", "--overlay", overlay, "--root", root,
		"--bootstrap-ip", fam.bootIP, "--image", testImage, "--proxy-version", proxyVersion.Name).CombinedOutput()
	if err != nil {
		t.Fatalf("konnectivity-bundle render --overlay %s: %v\n%s", overlay, err, out)
	}
	t.Logf("render --overlay %s:\n%s", overlay, out)
}

// modeOverlay writes an overlay that takes the family's config and sets
// spec.mode: overlays/<family>/config where the overlay patches one, else
// the base config with its function wiring.
func modeOverlay(t *testing.T, mode string, fam family) string {
	t.Helper()
	config := "overlays/" + fam.name + "/config"
	if _, err := os.Stat(filepath.Join(repoRoot(), config)); err != nil {
		config = "base/function"
	}
	return tooltest.WriteOverlay(t, tooltest.Overlay{Config: config, Spec: "mode: " + mode})
}
