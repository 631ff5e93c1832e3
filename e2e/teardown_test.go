//go:build e2e

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// runTeardown runs `konnectivity-bundle teardown --strict` against the
// bootstrap KAS. No namespace controller runs here, so the namespace can never
// finish deleting: teardown must issue the delete and return, not wait
// (docs/render.md, teardown). It must also remove every file render recorded.
func runTeardown(t *testing.T, name string, tp *topology, kas *apiserver, root string, b *renderedBundle) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard, not a speed limit
	defer cancel()
	disown(t, kas, b.namespace, hostlayout.AgentSecretName)
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
	if _, err := c.AppsV1().DaemonSets(b.namespace).Get(context.Background(), hostlayout.AgentName, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("DaemonSet %s still exists after teardown (%v)", hostlayout.AgentName, err)
	}
	// The Secret no longer carries the owner marker: teardown must refuse it.
	if s, err := c.CoreV1().Secrets(b.namespace).Get(context.Background(), hostlayout.AgentSecretName, metav1.GetOptions{}); err != nil || s.DeletionTimestamp != nil {
		t.Errorf("Secret %s without the owner marker was deleted by teardown (%v)", hostlayout.AgentSecretName, err)
	}
	if !strings.Contains(string(out), "refused   Secret "+b.namespace+"/"+hostlayout.AgentSecretName) {
		t.Errorf("teardown did not report the unmarked Secret as refused:\n%s", out)
	}
	for _, p := range append(b.paths, hostlayout.StatePath) {
		if _, err := os.Stat(filepath.Join(root, p)); !os.IsNotExist(err) {
			t.Errorf("%s still on the host after teardown (%v)", p, err)
		}
	}
}

// disown removes render's owner marker from a live Secret, as if someone
// else had made it: teardown must then leave it alone.
func disown(t *testing.T, kas *apiserver, namespace, name string) {
	t.Helper()
	ctx := context.Background()
	s, err := kas.client.CoreV1().Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get Secret %s/%s: %v", namespace, name, err)
	}
	if s.Annotations[hostlayout.AnnotationOwner] == "" {
		t.Fatalf("rendered Secret %s/%s carries no %s annotation", namespace, name, hostlayout.AnnotationOwner)
	}
	delete(s.Annotations, hostlayout.AnnotationOwner)
	if _, err := kas.client.CoreV1().Secrets(namespace).Update(ctx, s, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("remove the owner marker of Secret %s/%s: %v", namespace, name, err)
	}
}
