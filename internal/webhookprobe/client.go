package webhookprobe

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/samehost"
)

// The resources the probe reads. It uses the dynamic client, not the typed
// clientset: the clientset links client-go's scheme of every built-in API,
// whose initialisers cost every konnectivity-bundle process (render
// included) about 2-3 ms of start-up.
var (
	validatingWebhooks = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingwebhookconfigurations"}
	mutatingWebhooks   = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "mutatingwebhookconfigurations"}
	apiServices        = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
	services           = schema.GroupVersionResource{Version: "v1", Resource: "services"}
	endpointSlices     = schema.GroupVersionResource{Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices"}
)

// Client builds a dynamic client from a kubeconfig file.
func Client(kubeconfig string) (dynamic.Interface, error) {
	c, err := samehost.DynamicFromKubeconfig(kubeconfig, 0) // no redirect to another host
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	return c, nil
}

// list lists a resource (in namespace ns, "" for cluster-scoped ones) and
// converts the result into out, a typed list or any struct with its fields.
func list(ctx context.Context, c dynamic.Interface, gvr schema.GroupVersionResource, ns string, opts metav1.ListOptions, out any) error {
	l, err := c.Resource(gvr).Namespace(ns).List(ctx, opts)
	if err != nil {
		return err
	}
	return fromUnstructured(l.UnstructuredContent(), out)
}

// get reads one namespaced object into out.
func get(ctx context.Context, c dynamic.Interface, gvr schema.GroupVersionResource, ns, name string, out any) error {
	o, err := c.Resource(gvr).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	return fromUnstructured(o.UnstructuredContent(), out)
}

func fromUnstructured(content map[string]any, out any) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content, out); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}
