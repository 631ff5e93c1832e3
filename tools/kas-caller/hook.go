package main

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"go.opentelemetry.io/otel/trace"
	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/server/egressselector"
	"k8s.io/apiserver/pkg/util/webhook"
)

// The webhook's Service, as the e2e suite registers it: the name its
// serving certificate is for.
const (
	serviceNS   = "e2e-webhook"
	serviceName = "e2e-webhook"
	servicePath = "/validate"
)

// hook is the webhook client a kube-apiserver builds for a
// Service-referenced webhook: its ClientManager, with the egress selector
// wrapped in as the kube-apiserver wraps it (NewDefaultAuthenticationInfoResolverWrapper).
type hook struct {
	cm *webhook.ClientManager
	cc webhook.ClientConfig
}

// newHook reads the egress file the kube-apiserver would, refuses one that
// does not tunnel the cluster network, and builds the client.
func newHook(egressFile string, ca []byte, endpoint *url.URL) (*hook, error) {
	cfg, err := egressselector.ReadEgressSelectorConfiguration(egressFile)
	if err != nil {
		return nil, fmt.Errorf("read the egress file: %w", err)
	}
	if errs := egressselector.ValidateEgressSelectorConfiguration(cfg); len(errs) > 0 {
		return nil, fmt.Errorf("egress file: %v", errs.ToAggregate())
	}
	sel, err := egressselector.NewEgressSelector(cfg)
	if err != nil {
		return nil, fmt.Errorf("egress selector: %w", err)
	}
	// nil, nil means "direct": such a file would not tunnel at all.
	if dial, err := sel.Lookup(egressselector.Cluster.AsNetworkContext()); err != nil || dial == nil {
		return nil, fmt.Errorf("the egress file gives the cluster network no tunnel (dialer %v, %v)", dial != nil, err)
	}
	cm, err := webhook.NewClientManager([]schema.GroupVersion{admissionv1.SchemeGroupVersion}, admissionv1.AddToScheme)
	if err != nil {
		return nil, fmt.Errorf("webhook client manager: %w", err)
	}
	auth, err := webhook.NewDefaultAuthenticationInfoResolver("")
	if err != nil {
		return nil, fmt.Errorf("webhook authentication: %w", err)
	}
	cm.SetAuthenticationInfoResolver(auth)
	cm.SetAuthenticationInfoResolverWrapper(webhook.NewDefaultAuthenticationInfoResolverWrapper(nil, sel, nil, trace.NewNoopTracerProvider()))
	cm.SetServiceResolver(fixedResolver{endpoint})
	if err := cm.Validate(); err != nil {
		return nil, fmt.Errorf("webhook client manager: %w", err)
	}
	return &hook{cm: &cm, cc: webhook.ClientConfig{Name: "kas-caller", CABundle: ca,
		Service: &webhook.ClientConfigService{Name: serviceName, Namespace: serviceNS, Path: servicePath, Port: 443}}}, nil
}

// fixedResolver resolves the Service to its one endpoint, as the
// kube-apiserver's aggregator routing resolves it from the Endpoints.
type fixedResolver struct{ u *url.URL }

func (f fixedResolver) ResolveEndpoint(namespace, name string, port int32) (*url.URL, error) {
	if namespace != serviceNS || name != serviceName {
		return nil, fmt.Errorf("no endpoint for service %s/%s", namespace, name)
	}
	u := *f.u
	return &u, nil
}

// call posts one AdmissionReview the way the validating dispatcher does
// (client.Post().Body(review).Timeout(timeout).Do) and wants an answer.
func (h *hook) call(ctx context.Context, timeout time.Duration) error {
	client, err := h.cm.HookClient(h.cc)
	if err != nil {
		return fmt.Errorf("hook client: %w", err)
	}
	review := &admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{UID: types.UID("kas-caller"), Operation: admissionv1.Create,
			Object: runtime.RawExtension{Raw: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"kas-caller"}}`)}},
	}
	out := &admissionv1.AdmissionReview{}
	if err := client.Post().Body(review).Timeout(timeout).Do(ctx).Into(out); err != nil {
		return err
	}
	if out.Response == nil || out.Response.UID != review.Request.UID {
		return fmt.Errorf("the webhook's answer has no response for this review")
	}
	return nil
}
