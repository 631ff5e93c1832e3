//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"testing"
	"time"

	admregv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// Nothing listens on downPort in the webhook pod: its webhook is registered
// but its pod is "not up".
const (
	downSvc  = "e2e-down"
	downPort = 9444
)

// TestProbeWebhooks: `probe --webhooks` lists the webhooks registered in the
// real bootstrap kube-apiserver and dials each through the real tunnel as
// the kube-apiserver does: the running webhook is reachable and the one
// whose pod is not up is refused; with the agent gone both say no agent, so
// a broken tunnel is told apart from a webhook that is down.
func TestProbeWebhooks(t *testing.T) {
	e := newEnv(t, bundle.ModeHTTPConnect, ipv4)
	registerDownWebhook(t, e.kas.client, e.fam.webhookIP)
	e.startTunnel(t)
	want := map[string]string{"deny.e2e.konnectivity.io": "reachable", "down.e2e.konnectivity.io": "refused"}
	t.Run("one reachable, one refused", func(t *testing.T) { expectOutcomes(t, e, want) })
	e.h.agentProc.Kill()
	t.Run("agent gone: no agent for both", func(t *testing.T) {
		expectOutcomes(t, e, map[string]string{"deny.e2e.konnectivity.io": "no agent", "down.e2e.konnectivity.io": "no agent"})
	})
}

// expectOutcomes runs the CLI in the bootstrap namespace until every
// webhook has its expected outcome (the server notices a dead agent within
// moments; the wait only gives a loaded machine room).
func expectOutcomes(t *testing.T, e *env, want map[string]string) {
	t.Helper()
	kubeconfig := e.kas.kubeconfig(t)
	var last string
	_, err := eventually(tunnelWait, 500*time.Millisecond, func() error {
		out, err := exec.Command("ip", "netns", "exec", e.tp.boot, cli(t), "probe", "--webhooks", "--endpoint-routing",
			"--kubeconfig", kubeconfig, "--root", e.root, "--timeout", "5s", "-o", "json").Output()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			return err
		}
		last = string(out)
		var rs []struct{ Webhook, Outcome, Detail string }
		if err := json.Unmarshal(out, &rs); err != nil {
			return fmt.Errorf("output is not JSON: %v", err)
		}
		got := map[string]string{}
		for _, r := range rs {
			got[r.Webhook] = r.Outcome
		}
		for w, o := range want {
			if got[w] != o {
				return fmt.Errorf("webhook %s: %q, want %q", w, got[w], o)
			}
		}
		if len(got) != len(want) {
			return fmt.Errorf("probed %v, want exactly %v", got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%v\nlast output:\n%s", err, last)
	}
	t.Logf("probe --webhooks:\n%s", last)
}

// registerDownWebhook registers a second Service-referenced webhook whose
// endpoint is the webhook pod on a port nothing listens on. It fails open
// and matches no namespace, so it never gets in the way of admission.
func registerDownWebhook(t *testing.T, c kubernetes.Interface, podIP string) {
	t.Helper()
	ctx := context.Background()
	_, err := c.CoreV1().Services(webhookNS).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: downSvc},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "https", Port: 443, TargetPort: intstr.FromInt32(downPort)}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create service: %v", err)
	}
	if err := createServiceBackend(c, webhookNS, downSvc, podIP, downPort); err != nil {
		t.Fatalf("create the backend: %v", err)
	}
	ignore, none, svcPort := admregv1.Ignore, admregv1.SideEffectClassNone, int32(443)
	_, err = c.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, &admregv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: downSvc},
		Webhooks: []admregv1.ValidatingWebhook{{
			Name:                    "down.e2e.konnectivity.io",
			ClientConfig:            admregv1.WebhookClientConfig{Service: &admregv1.ServiceReference{Namespace: webhookNS, Name: downSvc, Port: &svcPort}},
			Rules:                   []admregv1.RuleWithOperations{{Operations: []admregv1.OperationType{admregv1.Create}, Rule: admregv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}}}},
			NamespaceSelector:       &metav1.LabelSelector{MatchLabels: map[string]string{"e2e.konnectivity.io/never": "matches"}},
			FailurePolicy:           &ignore,
			SideEffects:             &none,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create webhook configuration: %v", err)
	}
}
