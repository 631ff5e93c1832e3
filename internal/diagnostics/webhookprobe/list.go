// Package webhookprobe lists the Service-backed admission webhooks and
// APIServices registered in a kube-apiserver and dials each through the
// Konnectivity tunnel exactly as the bootstrap kube-apiserver would, so "the
// tunnel is broken" is told apart from "that webhook's pod is not up".
package webhookprobe

import (
	"context"
	"fmt"
	"net"
	"strconv"

	admregv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Target is one Service-backed callee of the kube-apiserver.
type Target struct {
	Kind      string `json:"kind"` // ValidatingWebhookConfiguration, MutatingWebhookConfiguration or APIService
	Name      string `json:"name"` // the configuration or APIService
	Webhook   string `json:"webhook,omitempty"`
	Service   string `json:"service"` // namespace/name:port
	Address   string `json:"address,omitempty"`
	namespace string
	svc       string
	port      int32
}

// List returns every Service-backed webhook and APIService. Webhooks given
// by URL use the controlplane egress and are not proxied, so they are left out.
func List(ctx context.Context, r *kuberead.Reader) ([]Target, error) {
	var out []Target
	var vw admregv1.ValidatingWebhookConfigurationList
	if err := r.List(ctx, validatingWebhooks, "", "", &vw); err != nil {
		return nil, fmt.Errorf("list validating webhook configurations: %w", textsafe.Err(err))
	}
	for _, cfg := range vw.Items {
		for _, w := range cfg.Webhooks {
			if s := w.ClientConfig.Service; s != nil {
				out = append(out, newTarget("ValidatingWebhookConfiguration", cfg.Name, w.Name, s.Namespace, s.Name, s.Port))
			}
		}
	}
	var mw admregv1.MutatingWebhookConfigurationList
	if err := r.List(ctx, mutatingWebhooks, "", "", &mw); err != nil {
		return nil, fmt.Errorf("list mutating webhook configurations: %w", textsafe.Err(err))
	}
	for _, cfg := range mw.Items {
		for _, w := range cfg.Webhooks {
			if s := w.ClientConfig.Service; s != nil {
				out = append(out, newTarget("MutatingWebhookConfiguration", cfg.Name, w.Name, s.Namespace, s.Name, s.Port))
			}
		}
	}
	apis, err := listAPIServices(ctx, r)
	return append(out, apis...), err
}

func newTarget(kind, name, webhook, ns, svc string, port *int32) Target {
	p := int32(443) // the API's default for both webhooks and APIServices
	if port != nil {
		p = *port
	}
	return Target{Kind: kind, Name: name, Webhook: webhook, Service: fmt.Sprintf("%s/%s:%d", ns, svc, p), namespace: ns, svc: svc, port: p}
}

// listAPIServices reads apiregistration.k8s.io/v1 without the aggregator's
// types: only the service reference matters here.
func listAPIServices(ctx context.Context, r *kuberead.Reader) ([]Target, error) {
	var apis struct {
		Items []struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Spec struct {
				Service *struct { // the converter matches json names exactly
					Namespace string `json:"namespace"`
					Name      string `json:"name"`
					Port      *int32 `json:"port"`
				} `json:"service"`
			} `json:"spec"`
		} `json:"items"`
	}
	if err := r.List(ctx, apiServices, "", "", &apis); err != nil {
		return nil, fmt.Errorf("list APIServices: %w", err)
	}
	var out []Target
	for _, a := range apis.Items {
		if s := a.Spec.Service; s != nil { // nil: served by the kube-apiserver itself
			out = append(out, newTarget("APIService", a.Metadata.Name, "", s.Namespace, s.Name, s.Port))
		}
	}
	return out, nil
}

// resolve sets the address the kube-apiserver dials: the Service's
// ClusterIP and port, or with endpointRouting (kube-apiserver
// --enable-aggregator-routing) a ready endpoint's address and target port.
func resolve(ctx context.Context, r *kuberead.Reader, t *Target, endpointRouting bool) error {
	var svc corev1.Service
	if err := r.Get(ctx, services, t.namespace, t.svc, &svc); err != nil {
		return fmt.Errorf("service %s/%s: %w", t.namespace, t.svc, err)
	}
	var sp *corev1.ServicePort
	for i := range svc.Spec.Ports {
		if svc.Spec.Ports[i].Port == t.port {
			sp = &svc.Spec.Ports[i]
		}
	}
	if sp == nil {
		return fmt.Errorf("service %s/%s has no port %d", t.namespace, t.svc, t.port)
	}
	if !endpointRouting {
		if svc.Spec.ClusterIP == "" || svc.Spec.ClusterIP == corev1.ClusterIPNone {
			return fmt.Errorf("service %s/%s has no ClusterIP", t.namespace, t.svc)
		}
		t.Address = net.JoinHostPort(svc.Spec.ClusterIP, strconv.Itoa(int(t.port)))
		return nil
	}
	return resolveEndpoint(ctx, r, t, sp.Name)
}

func resolveEndpoint(ctx context.Context, r *kuberead.Reader, t *Target, portName string) error {
	var slices discoveryv1.EndpointSliceList
	if err := r.List(ctx, endpointSlices, t.namespace, discoveryv1.LabelServiceName+"="+t.svc, &slices); err != nil {
		return fmt.Errorf("endpoints of %s/%s: %w", t.namespace, t.svc, err)
	}
	for _, s := range slices.Items {
		for _, p := range s.Ports {
			if p.Port == nil || (p.Name != nil && *p.Name != portName) {
				continue
			}
			for _, e := range s.Endpoints {
				if e.Conditions.Ready != nil && !*e.Conditions.Ready || len(e.Addresses) == 0 {
					continue
				}
				t.Address = net.JoinHostPort(e.Addresses[0], strconv.Itoa(int(*p.Port)))
				return nil
			}
		}
	}
	return fmt.Errorf("service %s/%s has no ready endpoint (the pod is not up)", t.namespace, t.svc)
}
