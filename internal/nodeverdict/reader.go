package nodeverdict

import (
	"context"
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/samehost"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Reader is the four read-only calls Judge makes; each returns the API's
// error as is, so a 403 can be told apart.
type Reader interface {
	DaemonSet(ctx context.Context, ns, name string) (*appsv1.DaemonSet, error)
	Nodes(ctx context.Context) ([]corev1.Node, error)
	Pods(ctx context.Context, ns, selector string) ([]corev1.Pod, error)
	Events(ctx context.Context, ns string) ([]corev1.Event, error)
}

// The resources read. They go through the dynamic client, as
// internal/webhookprobe's do: the typed clientset would link every
// built-in API's client into every konnectivity-bundle process (about
// 40 MB of binary and start-up time) for four reads.
var (
	daemonSets = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "daemonsets"}
	nodesGVR   = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	podsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	eventsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "events"}
)

// Dynamic reads through a dynamic client.
func Dynamic(c dynamic.Interface) Reader { return dynReader{c} }

// Client builds the reader from a kubeconfig file; like every read from
// the kube-apiserver it follows no redirect to another host (samehost).
func Client(kubeconfig string) (Reader, error) {
	c, err := samehost.DynamicFromKubeconfig(kubeconfig, 0)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	return Dynamic(c), nil
}

type dynReader struct{ c dynamic.Interface }

func (r dynReader) DaemonSet(ctx context.Context, ns, name string) (*appsv1.DaemonSet, error) {
	o, err := r.c.Resource(daemonSets).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	ds := &appsv1.DaemonSet{}
	return ds, convert(o.UnstructuredContent(), ds)
}

func (r dynReader) Nodes(ctx context.Context) ([]corev1.Node, error) {
	var l corev1.NodeList
	return l.Items, r.list(ctx, nodesGVR, "", metav1.ListOptions{}, &l)
}

func (r dynReader) Pods(ctx context.Context, ns, selector string) ([]corev1.Pod, error) {
	var l corev1.PodList
	return l.Items, r.list(ctx, podsGVR, ns, metav1.ListOptions{LabelSelector: selector}, &l)
}

func (r dynReader) Events(ctx context.Context, ns string) ([]corev1.Event, error) {
	var l corev1.EventList
	return l.Items, r.list(ctx, eventsGVR, ns, metav1.ListOptions{}, &l)
}

func (r dynReader) list(ctx context.Context, gvr schema.GroupVersionResource, ns string, opts metav1.ListOptions, out any) error {
	l, err := r.c.Resource(gvr).Namespace(ns).List(ctx, opts)
	if err != nil {
		return err
	}
	return convert(l.UnstructuredContent(), out)
}

func convert(content map[string]any, out any) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content, out); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}
