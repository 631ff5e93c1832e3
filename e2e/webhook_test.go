//go:build e2e

package e2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	admregv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/denywebhook"
)

// Names of the webhook's objects; the Service DNS name is what the apiserver
// verifies the webhook's certificate against.
const (
	webhookNS      = "e2e-webhook"
	webhookSvc     = "e2e-webhook"
	webhookPort    = 8443
	targetNS       = "e2e-target"
	denyLabel      = denywebhook.DenyLabel
	denyMessage    = denywebhook.DenyMessage
	webhookCfgName = "e2e-deny-labelled"
)

// webhook is a TLS admission webhook serving in the pod network.
type webhook struct {
	ip     string
	caPEM  []byte
	srv    *http.Server
	mu     sync.Mutex
	calls  int
	remote map[string]int // source addresses seen, without port
}

// startWebhook serves in namespace ns on ip:8443 until the test ends.
func startWebhook(t *testing.T, ns, ip string) *webhook {
	t.Helper()
	ca := newTestCA(t, "e2e-webhook-ca")
	crt, key := ca.leaf(t, "e2e-webhook", x509.ExtKeyUsageServerAuth, webhookSvc+"."+webhookNS+".svc", ip)
	pair, err := tls.X509KeyPair(crt, key)
	if err != nil {
		t.Fatal(err)
	}
	l, err := nsListen(ns, net.JoinHostPort(ip, fmt.Sprint(webhookPort)))
	if err != nil {
		t.Fatalf("webhook listen: %v", err)
	}
	w := &webhook{ip: ip, caPEM: ca.certPEM, remote: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/validate", w.validate)
	mux.HandleFunc("/apis/", serveGroupVersion)
	w.srv = &http.Server{Handler: mux, TLSConfig: &tls.Config{Certificates: []tls.Certificate{pair}}, ReadHeaderTimeout: 5 * time.Second,
		// Probes that only open a connection would log handshake EOFs.
		ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = w.srv.ServeTLS(l, "", "") }()
	t.Cleanup(func() { _ = w.srv.Close() })
	return w
}

// validate records the caller's address and answers as denywebhook does:
// deny an object labelled denyLabel=true, allow the rest.
func (w *webhook) validate(rw http.ResponseWriter, r *http.Request) {
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	w.mu.Lock()
	w.calls++
	w.remote[host]++
	w.mu.Unlock()
	denywebhook.Validate(rw, r)
}

// serveGroupVersion answers /apis/GROUP/VERSION with an empty resource list,
// so an APIService the pod serves passes the aggregator's availability check.
func serveGroupVersion(rw http.ResponseWriter, r *http.Request) {
	gv := strings.Trim(strings.TrimPrefix(r.URL.Path, "/apis/"), "/")
	rw.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(rw).Encode(metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"},
		GroupVersion: gv, APIResources: []metav1.APIResource{}})
}

// count is how many admission reviews the webhook answered.
func (w *webhook) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.calls
}

// sources returns the source addresses the webhook saw.
func (w *webhook) sources() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]int{}
	for k, v := range w.remote {
		out[k] = v
	}
	return out
}

// registerWebhook creates the webhook's Service, its backend (the pod IP),
// target namespace and a Service-referenced ValidatingWebhookConfiguration
// with failurePolicy Fail.
func registerWebhook(t *testing.T, c kubernetes.Interface, w *webhook) {
	t.Helper()
	ctx := context.Background()
	create := func(what string, err error) {
		if err != nil {
			t.Fatalf("create %s: %v", what, err)
		}
	}
	_, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: webhookNS}}, metav1.CreateOptions{})
	create("webhook namespace", err)
	_, err = c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: targetNS,
		Labels: map[string]string{"e2e.konnectivity.io/webhook": "on"}}}, metav1.CreateOptions{})
	create("target namespace", err)
	_, err = c.CoreV1().Services(webhookNS).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: webhookSvc},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "https", Port: 443, TargetPort: intstr.FromInt32(webhookPort)}}},
	}, metav1.CreateOptions{})
	create("webhook service", err)
	create("webhook backend", createServiceBackend(c, webhookNS, webhookSvc, w.ip, webhookPort))
	create("validating webhook configuration", createWebhookConfig(c, w))
}

// createWebhookConfig registers the Service-referenced webhook for
// ConfigMaps in the target namespace, failing closed.
func createWebhookConfig(c kubernetes.Interface, w *webhook) error {
	fail, none, timeout, path := admregv1.Fail, admregv1.SideEffectClassNone, int32(5), "/validate"
	svcPort := int32(443)
	_, err := c.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(context.Background(), &admregv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: webhookCfgName},
		Webhooks: []admregv1.ValidatingWebhook{{
			Name: "deny.e2e.konnectivity.io",
			ClientConfig: admregv1.WebhookClientConfig{
				Service:  &admregv1.ServiceReference{Namespace: webhookNS, Name: webhookSvc, Path: &path, Port: &svcPort},
				CABundle: w.caPEM,
			},
			Rules: []admregv1.RuleWithOperations{{Operations: []admregv1.OperationType{admregv1.Create},
				Rule: admregv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}}}},
			NamespaceSelector:       &metav1.LabelSelector{MatchLabels: map[string]string{"e2e.konnectivity.io/webhook": "on"}},
			FailurePolicy:           &fail,
			SideEffects:             &none,
			TimeoutSeconds:          &timeout,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}, metav1.CreateOptions{})
	return err
}

// admit asks the apiserver to create a ConfigMap (dry run, so loops leave no
// objects behind); the webhook is called either way. deny sets the label.
func admit(c kubernetes.Interface, deny bool) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "e2e-"}}
	if deny {
		cm.Labels = map[string]string{denyLabel: "true"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.CoreV1().ConfigMaps(targetNS).Create(ctx, cm, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	return err
}
