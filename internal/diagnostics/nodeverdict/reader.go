package nodeverdict

import (
	"context"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Reader is the four read-only calls Judge makes; each returns the API's
// error as is, so a 403 can be told apart.
type Reader interface {
	DaemonSet(ctx context.Context, ns, name string) (*appsv1.DaemonSet, error)
	Nodes(ctx context.Context) ([]corev1.Node, error)
	Pods(ctx context.Context, ns, selector string) ([]corev1.Pod, error)
	Events(ctx context.Context, ns string) ([]corev1.Event, error)
}

// The resources read. They go through the dynamic client (inside
// internal/intake/kuberead), as internal/diagnostics/webhookprobe's do: the typed clientset
// would link every built-in API's client into every konnectivity-bundle
// process (about 40 MB of binary and start-up time) for four reads.
var (
	daemonSets = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "daemonsets"}
	nodesGVR   = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	podsGVR    = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	eventsGVR  = schema.GroupVersionResource{Version: "v1", Resource: "events"}
)

// Over reads through r, the command's bounded reader: each read ends
// within its timeout and each list stops at its item cap.
func Over(r *kuberead.Reader) Reader { return boundedReader{r} }

type boundedReader struct{ r *kuberead.Reader }

func (b boundedReader) DaemonSet(ctx context.Context, ns, name string) (*appsv1.DaemonSet, error) {
	ds := &appsv1.DaemonSet{}
	if err := b.r.Get(ctx, daemonSets, ns, name, ds); err != nil {
		return nil, err
	}
	return ds, nil
}

func (b boundedReader) Nodes(ctx context.Context) ([]corev1.Node, error) {
	var l corev1.NodeList
	err := b.r.List(ctx, nodesGVR, "", "", &l)
	return l.Items, err
}

func (b boundedReader) Pods(ctx context.Context, ns, selector string) ([]corev1.Pod, error) {
	var l corev1.PodList
	err := b.r.List(ctx, podsGVR, ns, selector, &l)
	return l.Items, err
}

func (b boundedReader) Events(ctx context.Context, ns string) ([]corev1.Event, error) {
	var l corev1.EventList
	err := b.r.List(ctx, eventsGVR, ns, "", &l)
	return l.Items, err
}
