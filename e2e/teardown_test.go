//go:build e2e

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// runTeardown runs `konnectivity-bundle teardown` against the bootstrap KAS.
// No namespace controller runs, so the namespace can never finish deleting:
// teardown must issue the delete and return, not wait (REFERENCE.md section 8).
func runTeardown(t *testing.T, tp *topology, kas *apiserver, root string, b *renderedBundle) {
	bin := cli(t)
	if err := exec.Command(bin, "teardown", "--help").Run(); err != nil {
		t.Skipf("konnectivity-bundle teardown is not in this build yet (%v)", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard, not a speed limit
	defer cancel()
	start := time.Now()
	out, err := exec.CommandContext(ctx, "ip", "netns", "exec", tp.boot, bin, "teardown", "--root", root, "--kubeconfig", kas.kubeconfig(t)).CombinedOutput()
	took := time.Since(start)
	if err != nil {
		t.Fatalf("teardown: %v\n%s", err, out)
	}
	t.Logf("teardown took %v:\n%s", took.Round(time.Millisecond), out)
	ns, err := kas.client.CoreV1().Namespaces().Get(context.Background(), b.namespace, metav1.GetOptions{})
	if err == nil && ns.DeletionTimestamp == nil {
		t.Errorf("namespace %s still exists and is not being deleted", b.namespace)
	}
	for _, p := range []string{"etc/kubernetes/manifests/konnectivity-server-pod.yaml", "opt/openshift/konnectivity-config-override.yaml"} {
		if _, err := os.Stat(filepath.Join(root, p)); !os.IsNotExist(err) {
			t.Errorf("%s still on the host after teardown (%v)", p, err)
		}
	}
}
