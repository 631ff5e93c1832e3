//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// latencyCalls is how many admission round trips each latency figure uses.
const latencyCalls = 300

// TestTunnel runs the flow for each mode and IP family: render, start
// the real server and agent from the rendered manifests, a bootstrap KAS with
// the rendered egress selector, a webhook reachable only through the tunnel.
func TestTunnel(t *testing.T) {
	for _, fam := range []family{ipv4, ipv6} {
		for _, mode := range []string{bundle.ModeHTTPConnect, bundle.ModeGRPC} {
			t.Run(mode+"-"+fam.name, func(t *testing.T) { runTunnel(t, mode, fam) })
		}
	}
}

func runTunnel(t *testing.T, mode string, fam family) {
	e := newEnv(t, mode, fam)
	t.Run("bootstrap host has no route to the pod network", e.noRouteToPods)
	t.Run("webhook fails before the server runs", e.failsBeforeServer)
	e.startTunnel(t)
	t.Run("allowed and denied through the tunnel", e.admitsThroughTunnel)
	tunnel := measure(t, e.kas.client)
	e.figure("webhook latency through the tunnel", tunnel)
	t.Run("raw webhook round trips: KAS egress dialer vs direct from the node", e.rawLatency)
	t.Run("server killed and restarted", e.serverRestart)
	t.Run("agent killed and restarted", e.agentRestart)
	t.Run("production KAS reaches the webhook directly", func(t *testing.T) { e.production(t, tunnel) })
	t.Run("teardown", func(t *testing.T) { runTeardown(t, e.name, e.tp, e.kas, e.root, e.h.b) })
}

// checkAdmission asserts the webhook allows an unlabelled ConfigMap (really
// created) and denies a labelled one with its own message.
func checkAdmission(t *testing.T, c kubernetes.Interface) {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "allowed-"}}
	if _, err := c.CoreV1().ConfigMaps(targetNS).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Errorf("allowed ConfigMap refused: %v", err)
	}
	err := admit(c, true)
	if err == nil || !strings.Contains(err.Error(), denyMessage) {
		t.Errorf("labelled ConfigMap: error %v, want the webhook's denial %q", err, denyMessage)
	}
}

// waitAdmitted waits until an admission succeeds and returns how long it took.
func waitAdmitted(t *testing.T, c kubernetes.Interface, timeout time.Duration) time.Duration {
	t.Helper()
	took, err := eventually(timeout, 10*time.Millisecond, func() error { return admit(c, false) })
	if err != nil {
		t.Fatal(err)
	}
	return took
}

// measure times latencyCalls admissions (each one webhook round trip).
func measure(t *testing.T, c kubernetes.Interface) latency {
	t.Helper()
	ds := make([]time.Duration, 0, latencyCalls)
	for range latencyCalls {
		start := time.Now()
		if err := admit(c, false); err != nil {
			t.Fatalf("admission %d: %v", len(ds), err)
		}
		ds = append(ds, time.Since(start))
	}
	return summarise(ds)
}
