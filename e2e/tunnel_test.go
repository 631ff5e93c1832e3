//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"net"
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

// env is a bootstrap host with the rendered bundle mapped, the bootstrap KAS
// running with the rendered egress selector, the rendered cluster objects
// applied and the webhook registered; server and agent are not started.
type env struct {
	name string
	fam  family
	tp   *topology
	root string
	h    *bootstrapHost
	wh   *webhook
	kas  *apiserver
}

func newEnv(t *testing.T, mode string, fam family) *env {
	t.Helper()
	e := &env{name: mode + "/" + fam.name, fam: fam, tp: newTopology(t, fam), root: shortRoot(t)}
	renderInto(t, e.root, mode, fam)
	e.h = mapBundle(t, e.tp, e.root)
	e.wh = startWebhook(t, e.tp.pod, fam.webhookIP)
	// The KAS starts before the server, as on a real bootstrap node.
	e.kas = startAPIServer(t, e.tp.boot, "bootstrap-kas", fam, fam.bootIP, "--egress-selector-config-file="+e.h.kasEgress)
	applyDocs(t, e.kas, e.h.b.clusterDocs)
	dryRunStaticPod(t, e.kas, e.h.serverPod())
	registerWebhook(t, e.kas.client, e.wh)
	return e
}

func runTunnel(t *testing.T, mode string, fam family) {
	e := newEnv(t, mode, fam)
	name, tp, h, wh, kas := e.name, e.tp, e.h, e.wh, e.kas
	whAddr := net.JoinHostPort(fam.webhookIP, fmt.Sprint(webhookPort))

	t.Run("bootstrap host has no route to the pod network", func(t *testing.T) {
		if err := dialFrom(tp.boot, whAddr); err == nil {
			t.Fatalf("dial %s from the bootstrap namespace succeeded; the test would prove nothing", whAddr)
		}
		if err := dialFrom(tp.node, whAddr); err != nil {
			t.Fatalf("dial %s from the node namespace: %v", whAddr, err)
		}
	})

	t.Run("webhook fails before the server runs", func(t *testing.T) {
		// http-connect dials the UDS itself and fails at once, naming the
		// socket. The grpc client keeps retrying the dial until the webhook's
		// timeoutSeconds ends the call, so the error is only a deadline.
		want := []string{h.socket, "no such file or directory"}
		if mode == bundle.ModeGRPC {
			want = []string{"context deadline exceeded"}
		}
		var took time.Duration
		_, err := eventually(15*time.Second, 50*time.Millisecond, func() error {
			start := time.Now()
			err := admit(kas.client, false)
			took = time.Since(start)
			if err == nil {
				return errors.New("admitted: webhook configuration not active yet")
			}
			for _, w := range want {
				if strings.Contains(err.Error(), w) {
					t.Logf("before the server (%v): %v", took.Round(time.Millisecond), err)
					return nil
				}
			}
			return fmt.Errorf("error does not contain any of %q: %w", want, err)
		})
		if err != nil {
			t.Fatal(err)
		}
		figures.add(name, "webhook failure before the server starts", took.Round(time.Millisecond))
	})

	h.startServer(t)
	h.startAgent(t, h.agent.argv)
	first, err := eventually(30*time.Second, 10*time.Millisecond, func() error { return admit(kas.client, false) })
	if err != nil {
		t.Fatalf("no webhook call through the tunnel after agent start: %v", err)
	}
	figures.add(name, "first webhook call after agent start", first.Round(time.Millisecond))

	t.Run("allowed and denied through the tunnel", func(t *testing.T) {
		checkAdmission(t, kas.client)
		if src := wh.sources(); len(src) != 1 || src[fam.nodePodIP] == 0 {
			t.Errorf("webhook saw calls from %v, want only the node's pod-network address %s (the agent)", src, fam.nodePodIP)
		}
	})

	tunnel := measure(t, kas.client)
	figures.add(name, "webhook latency through the tunnel", tunnel)
	t.Run("raw webhook round trips: KAS egress dialer vs direct from the node", func(t *testing.T) {
		viaTunnel := measureRaw(t, webhookClient(kasClusterDialer(t, h.kasEgress), wh.caPEM), fam.webhookIP)
		direct := measureRaw(t, webhookClient(nsDialer(tp.node), wh.caPEM), fam.webhookIP)
		figures.add(name, "raw round trip through the tunnel", viaTunnel)
		figures.add(name, "raw round trip direct from the node", direct)
		figures.add(name, "raw tunnel overhead (median difference)", (viaTunnel.median - direct.median).Round(10*time.Microsecond))
	})

	t.Run("server killed and restarted", func(t *testing.T) {
		failed := strings.Count(h.agentProc.log(), "cannot connect once")
		h.serverProc.kill()
		h.startServer(t)
		took := waitAdmitted(t, kas.client, 60*time.Second)
		// The agent redials on its sync tick; each failed attempt (server not
		// listening yet) stretches the next wait by 1.5x, hence the count.
		failed = strings.Count(h.agentProc.log(), "cannot connect once") - failed
		figures.add(name, "reconnect after server restart", fmt.Sprintf("%v (%d failed agent dials)", took.Round(time.Millisecond), failed))
	})
	t.Run("agent killed and restarted", func(t *testing.T) {
		h.agentProc.kill()
		h.startAgent(t, h.agent.argv)
		took := waitAdmitted(t, kas.client, 60*time.Second)
		figures.add(name, "reconnect after agent restart", took.Round(time.Millisecond))
	})

	t.Run("production KAS reaches the webhook directly", func(t *testing.T) {
		prod := startAPIServer(t, tp.node, "production-kas", fam, fam.nodeIP)
		registerWebhook(t, prod.client, wh)
		waitAdmitted(t, prod.client, 15*time.Second)
		checkAdmission(t, prod.client)
		direct := measure(t, prod.client)
		figures.add(name, "webhook latency direct (production KAS)", direct)
		figures.add(name, "tunnel overhead (median difference)", (tunnel.median - direct.median).Round(10*time.Microsecond))

		h.agentProc.stop()
		h.serverProc.stop()
		checkAdmission(t, prod.client) // unaffected by the tunnel's absence
		if err := admit(kas.client, false); err == nil {
			t.Errorf("bootstrap KAS admitted with the tunnel down; failurePolicy Fail should refuse")
		}
	})

	t.Run("teardown", func(t *testing.T) { runTeardown(t, name, tp, kas, e.root, h.b) })
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
