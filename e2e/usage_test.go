//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	admregv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/usage"
)

// The usage test's namespace and the label whose value picks the webhook
// each ConfigMap is sent to (every webhook selects one value).
const (
	usageNS    = "e2e-usage"
	usageLabel = "e2e.konnectivity.io/usage"
)

// APIServices served by the webhook pod, and by its port that refuses.
const (
	usageAPIUp   = "v1.usage.e2e.konnectivity.io"
	usageAPIDown = "v1.down.e2e.konnectivity.io"
)

// How often the test calls each webhook.
const (
	usageAllowed = 7 // the mutating webhook, whose pod allows
	usageRefused = 4 // the validating webhook, whose pod refuses (denies)
	usageDown    = 3 // the validating webhook whose pod refuses the connection; it fails open
)

// TestTunnelUsage: the bootstrap kube-apiserver calls three webhooks
// through the real tunnel a known number of times; `status --gather` and
// then `teardown --gather` report exactly those counts from the real
// kube-apiserver's metrics, and the webhook pod's own count agrees.
func TestTunnelUsage(t *testing.T) {
	e := newEnv(t, bundle.ModeGRPC, ipv4)
	e.startTunnel(t)
	c := e.kas.client
	if _, err := c.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: usageNS}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	registerDownWebhook(t, c, e.fam.webhookIP) // its Service; its own webhook is never called
	registerUsageWebhooks(t, c, e.wh.caPEM)
	registerAPIService(t, c, usageAPIUp, webhookSvc)
	registerAPIService(t, c, usageAPIDown, downSvc)
	waitAPIServiceAvailable(t, c, usageAPIUp, "True")
	waitAPIServiceAvailable(t, c, usageAPIDown, "False")
	waitUsageWebhooks(t, c)
	before := e.wh.count()
	callUsageWebhooks(t, c)
	if got := e.wh.count() - before; got != usageAllowed+usageRefused {
		t.Errorf("the webhook pod answered %d calls, want %d allowed + %d refused", got, usageAllowed, usageRefused)
	}
	kubeconfig := e.kas.kubeconfig(t)
	t.Run("status --gather", func(t *testing.T) {
		dir := filepath.Join(testDir(t), "status-gather")
		out, err := exec.Command("ip", "netns", "exec", e.tp.boot, cli(t), "status", "--root", e.root,
			"--kubeconfig", kubeconfig, "--gather", dir).CombinedOutput()
		if err != nil {
			t.Fatalf("status: %v\n%s", err, out)
		}
		checkUsage(t, dir, string(out))
	})
	t.Run("teardown --gather", func(t *testing.T) {
		dir := filepath.Join(testDir(t), "teardown-gather")
		out, err := exec.Command("ip", "netns", "exec", e.tp.boot, cli(t), "teardown", "--root", e.root,
			"--kubeconfig", kubeconfig, "--gather", dir).CombinedOutput()
		if err != nil {
			t.Fatalf("teardown: %v\n%s", err, out)
		}
		checkUsage(t, dir, string(out))
	})
}

// checkUsage reads usage.json from dir and compares it with the calls made;
// the table on stdout must carry the same rows.
func checkUsage(t *testing.T, dir, stdout string) {
	t.Helper()
	t.Logf("output:\n%s", stdout)
	data, err := os.ReadFile(filepath.Join(dir, "usage.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep usage.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("usage.json: %v\n%s", err, data)
	}
	if !rep.KubeAPIServer.Read || !rep.ProxyServer.Read || !rep.Registrations.Read {
		t.Fatalf("a side was not read: %+v %+v %+v", rep.KubeAPIServer, rep.ProxyServer, rep.Registrations)
	}
	got := map[string]usage.Webhook{}
	for _, w := range rep.Webhooks {
		got[w.Name] = w
	}
	tests := []struct {
		name, typ                       string
		calls, allowed, refused, failed int
	}{
		{"allow.usage.e2e.konnectivity.io", "mutating", usageAllowed, usageAllowed, 0, 0},
		{"deny.usage.e2e.konnectivity.io", "validating", usageRefused, 0, usageRefused, 0},
		{"down.usage.e2e.konnectivity.io", "validating", usageDown, 0, 0, usageDown},
		{"down.e2e.konnectivity.io", "validating", 0, 0, 0, 0},
	}
	for _, tt := range tests {
		w := got[tt.name]
		if w.Type != tt.typ || w.Route != usage.RouteTunnel || w.Calls != tt.calls || w.Allowed != tt.allowed || w.Refused != tt.refused || w.Failed != tt.failed {
			t.Errorf("%s: %+v, want %s through the tunnel, %d calls: %d allowed, %d refused, %d failed",
				tt.name, w, tt.typ, tt.calls, tt.allowed, tt.refused, tt.failed)
		}
		if !strings.Contains(stdout, tt.name) {
			t.Errorf("the table lacks %s", tt.name)
		}
	}
	avail := map[string]string{}
	for _, a := range rep.APIServices {
		avail[a.Name] = "unknown"
		if a.Available != nil {
			avail[a.Name] = fmt.Sprint(*a.Available)
		}
	}
	if avail[usageAPIUp] != "true" || avail[usageAPIDown] != "false" {
		t.Errorf("APIServices available %v, want %s true and %s false", avail, usageAPIUp, usageAPIDown)
	}
	if len(rep.EgressDials) != 1 || rep.EgressDials[0].Protocol != "grpc" || rep.EgressDials[0].Transport != "uds" || rep.EgressDials[0].Succeeded == 0 {
		t.Errorf("egress dials %+v, want grpc over uds with successful dials", rep.EgressDials)
	}
	if s := rep.ServerDials; s == nil || s.Succeeded == 0 || s.Failed < usageDown {
		t.Errorf("server dials %+v, want successes and at least %d failures (the refused pod port)", s, usageDown)
	}
}

// waitUsageWebhooks calls each sentinel until its configuration is active,
// so no counted call can miss a webhook that is not active yet.
func waitUsageWebhooks(t *testing.T, c kubernetes.Interface) {
	t.Helper()
	for _, sel := range []string{"sentinel-v", "sentinel-m"} {
		if _, err := eventually(tunnelWait, 100*time.Millisecond, func() error { return usageCreate(c, sel, false) }); err != nil {
			t.Fatal(err)
		}
	}
}

// callUsageWebhooks makes the calls the report must count.
func callUsageWebhooks(t *testing.T, c kubernetes.Interface) {
	t.Helper()
	for i := range usageAllowed {
		if err := usageCreate(c, "allow", false); err != nil {
			t.Fatalf("allowed call %d: %v", i, err)
		}
	}
	for i := range usageRefused {
		if err := usageCreate(c, "deny", true); err == nil || !strings.Contains(err.Error(), denyMessage) {
			t.Fatalf("refused call %d: %v, want the webhook's denial", i, err)
		}
	}
	for i := range usageDown {
		if err := usageCreate(c, "down", false); err != nil {
			t.Fatalf("fail-open call %d: %v, want admitted (failurePolicy Ignore)", i, err)
		}
	}
}

// usageCreate asks for a dry-run ConfigMap labelled usage=sel; deny also
// labels it for the webhook pod to refuse.
func usageCreate(c kubernetes.Interface, sel string, deny bool) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "usage-", Labels: map[string]string{usageLabel: sel}}}
	if deny {
		cm.Labels[denyLabel] = "true"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, err := c.CoreV1().ConfigMaps(usageNS).Create(ctx, cm, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	return err
}

// registerUsageWebhooks registers a validating configuration ("deny",
// "down" and "sentinel-v") and a mutating one ("allow" and "sentinel-m"),
// each webhook selecting ConfigMaps by the usage label. All are served by
// the e2e webhook pod through the tunnel, except "down", whose Service
// points at a pod port that refuses connections and which fails open. A
// configuration becomes active as a whole, so once its sentinel is called
// the others are active too.
func registerUsageWebhooks(t *testing.T, c kubernetes.Interface, caPEM []byte) {
	t.Helper()
	fail, ignore, none, timeout, path, port := admregv1.Fail, admregv1.Ignore, admregv1.SideEffectClassNone, int32(10), "/validate", int32(443)
	cc := func(svc string) admregv1.WebhookClientConfig {
		return admregv1.WebhookClientConfig{Service: &admregv1.ServiceReference{Namespace: webhookNS, Name: svc, Path: &path, Port: &port}, CABundle: caPEM}
	}
	rules := []admregv1.RuleWithOperations{{Operations: []admregv1.OperationType{admregv1.Create},
		Rule: admregv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}}}}
	sel := func(v string) *metav1.LabelSelector {
		return &metav1.LabelSelector{MatchLabels: map[string]string{usageLabel: v}}
	}
	vw := func(name, svc string, policy *admregv1.FailurePolicyType) admregv1.ValidatingWebhook {
		return admregv1.ValidatingWebhook{Name: name + ".usage.e2e.konnectivity.io", ClientConfig: cc(svc), Rules: rules, ObjectSelector: sel(name),
			FailurePolicy: policy, SideEffects: &none, TimeoutSeconds: &timeout, AdmissionReviewVersions: []string{"v1"}}
	}
	mw := func(name string) admregv1.MutatingWebhook {
		return admregv1.MutatingWebhook{Name: name + ".usage.e2e.konnectivity.io", ClientConfig: cc(webhookSvc), Rules: rules, ObjectSelector: sel(name),
			FailurePolicy: &fail, SideEffects: &none, TimeoutSeconds: &timeout, AdmissionReviewVersions: []string{"v1"}}
	}
	ctx := context.Background()
	if _, err := c.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, &admregv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: usageNS},
		Webhooks:   []admregv1.ValidatingWebhook{vw("deny", webhookSvc, &fail), vw("down", downSvc, &ignore), vw("sentinel-v", webhookSvc, &fail)},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create validating webhook configuration: %v", err)
	}
	if _, err := c.AdmissionregistrationV1().MutatingWebhookConfigurations().Create(ctx, &admregv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: usageNS}, Webhooks: []admregv1.MutatingWebhook{mw("allow"), mw("sentinel-m")},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create mutating webhook configuration: %v", err)
	}
}

// registerAPIService registers name (VERSION.GROUP) served by svc in the
// webhook namespace (the pod answers /apis/GROUP/VERSION).
func registerAPIService(t *testing.T, c kubernetes.Interface, name, svc string) {
	t.Helper()
	version, group, _ := strings.Cut(name, ".")
	body, err := json.Marshal(map[string]any{"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": map[string]any{"name": name},
		"spec": map[string]any{"group": group, "version": version, "groupPriorityMinimum": 1000, "versionPriority": 15, "insecureSkipTLSVerify": true,
			"service": map[string]any{"namespace": webhookNS, "name": svc, "port": 443}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Discovery().RESTClient().Post().AbsPath("/apis/apiregistration.k8s.io/v1/apiservices").
		SetHeader("Content-Type", "application/json").Body(body).Do(context.Background()).Error(); err != nil {
		t.Fatalf("create APIService %s: %v", name, err)
	}
}

// waitAPIServiceAvailable waits until the aggregator sets the APIService's
// Available condition to want ("True" or "False").
func waitAPIServiceAvailable(t *testing.T, c kubernetes.Interface, name, want string) {
	t.Helper()
	_, err := eventually(tunnelWait, 200*time.Millisecond, func() error {
		raw, err := c.Discovery().RESTClient().Get().AbsPath("/apis/apiregistration.k8s.io/v1/apiservices/" + name).DoRaw(context.Background())
		if err != nil {
			return err
		}
		var a struct {
			Status struct {
				Conditions []struct{ Type, Status string }
			}
		}
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		for _, cond := range a.Status.Conditions {
			if cond.Type == "Available" && cond.Status == want {
				return nil
			}
		}
		return fmt.Errorf("APIService %s conditions %+v, want Available=%s", name, a.Status.Conditions, want)
	})
	if err != nil {
		t.Fatal(err)
	}
}
