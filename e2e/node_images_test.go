//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// webhookImage runs internal/testutil/denywebhook/denywebhookd in a pod.
const webhookImage = "localhost/denywebhook:e2e"

// nodeImages builds every image the node runs FROM scratch with podman
// (nothing can be pulled here) and saves each as an archive for
// `ctr images import`: the proxy image render is given, the pause image
// (Debian's static catatonit, as podman's own infra container uses) and the
// webhook.
func nodeImages(t *testing.T) []string {
	t.Helper()
	podmantest.Require(t)
	catatonit := tooltest.System(t, "catatonit", "catatonit")
	buildProxyImage(t)
	buildScratchImage(t, pauseImage, map[string]string{"/pause": catatonit}, `ENTRYPOINT ["/pause", "-P"]`+"\n")
	dir := t.TempDir()
	webhookBin := filepath.Join(dir, "denywebhookd")
	build := exec.Command("go", "build", "-o", webhookBin, "./internal/testutil/denywebhook/denywebhookd")
	build.Dir = repoRoot()
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build denywebhookd: %v\n%s", err, out)
	}
	buildScratchImage(t, webhookImage, map[string]string{"/denywebhookd": webhookBin}, `ENTRYPOINT ["/denywebhookd"]`+"\n")
	var archives []string
	for _, ref := range []string{proxyImage, pauseImage, webhookImage} {
		out := filepath.Join(dir, strings.ReplaceAll(filepath.Base(ref), ":", "_")+".tar") // podman refuses a ":" in the name
		podmantest.MustPodman(t, "save", "--quiet", "--format", "docker-archive", "-o", out, ref)
		archives = append(archives, out)
	}
	return archives
}
