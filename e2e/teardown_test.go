//go:build e2e

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// runTeardown runs `konnectivity-bundle teardown --strict` against the
// bootstrap KAS. No namespace controller runs here, so the namespace can never
// finish deleting: teardown must issue the delete and return, not wait
// (REFERENCE.md section 8). It must also remove every file render recorded.
func runTeardown(t *testing.T, name string, tp *topology, kas *apiserver, root string, b *renderedBundle) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard, not a speed limit
	defer cancel()
	start := time.Now()
	out, err := exec.CommandContext(ctx, "ip", "netns", "exec", tp.boot, cli(t), "teardown", "--strict",
		"--root", root, "--kubeconfig", kas.kubeconfig(t)).CombinedOutput()
	took := time.Since(start)
	if err != nil {
		t.Fatalf("teardown: %v\n%s", err, out)
	}
	figures.add(name, "teardown with a namespace that cannot finish", took.Round(time.Millisecond))
	t.Logf("teardown took %v:\n%s", took.Round(time.Millisecond), out)

	c := kas.client
	ns, err := c.CoreV1().Namespaces().Get(context.Background(), b.namespace, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		t.Errorf("namespace %s is gone; without a namespace controller it should stay Terminating", b.namespace)
	case err != nil:
		t.Errorf("get namespace: %v", err)
	case ns.DeletionTimestamp == nil:
		t.Errorf("namespace %s was not deleted", b.namespace)
	}
	if _, err := c.AppsV1().DaemonSets(b.namespace).Get(context.Background(), bundle.AgentName, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("DaemonSet %s still exists after teardown (%v)", bundle.AgentName, err)
	}
	for _, p := range append(b.paths, statePath) {
		if _, err := os.Stat(filepath.Join(root, p)); !os.IsNotExist(err) {
			t.Errorf("%s still on the host after teardown (%v)", p, err)
		}
	}
}
