package nodeverdict

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// state is what one Judge read from the cluster.
type state struct {
	in     Input
	ds     *appsv1.DaemonSet // nil: not created yet
	nodes  []corev1.Node
	pods   map[string]*corev1.Pod    // by node name
	events map[string][]corev1.Event // by involved pod name, oldest first
}

// read makes the four reads (daemonset, nodes, pods, events), each named in
// its error: a 403 names the verb and resource the kubeconfig lacks.
func read(ctx context.Context, c Reader, in Input) (*state, error) {
	st := &state{in: in, pods: map[string]*corev1.Pod{}, events: map[string][]corev1.Event{}}
	ds, err := c.DaemonSet(ctx, in.Namespace, in.DaemonSet)
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		return nil, apiError(err, "get", "daemonsets", in.Namespace)
	default:
		st.ds = ds
	}
	nodes, err := c.Nodes(ctx)
	if err != nil {
		return nil, apiError(err, "list", "nodes", "")
	}
	st.nodes = nodes
	slices.SortFunc(st.nodes, func(a, b corev1.Node) int { return strings.Compare(a.Name, b.Name) })
	if st.ds == nil {
		return st, nil
	}
	if err := st.readPods(ctx, c); err != nil {
		return nil, err
	}
	evs, err := c.Events(ctx, in.Namespace)
	if err != nil {
		return nil, apiError(err, "list", "events", in.Namespace)
	}
	for _, e := range evs {
		if e.InvolvedObject.Kind == "Pod" {
			st.events[e.InvolvedObject.Name] = append(st.events[e.InvolvedObject.Name], e)
		}
	}
	for _, es := range st.events {
		slices.SortStableFunc(es, func(a, b corev1.Event) int { return lastSeen(a).Compare(lastSeen(b)) })
	}
	return st, nil
}

// readPods lists the DaemonSet's pods by its selector and files each under
// its node: the one it runs on, else the one its node affinity pins it to.
func (st *state) readPods(ctx context.Context, c Reader) error {
	sel, err := metav1.LabelSelectorAsSelector(st.ds.Spec.Selector)
	if err != nil {
		sel = labels.Everything()
	}
	pods, err := c.Pods(ctx, st.in.Namespace, sel.String())
	if err != nil {
		return apiError(err, "list", "pods", st.in.Namespace)
	}
	for i := range pods {
		p := &pods[i]
		if p.DeletionTimestamp != nil {
			continue
		}
		node := p.Spec.NodeName
		if node == "" {
			node = pinnedNode(p)
		}
		if node != "" {
			st.pods[node] = newer(st.pods[node], p)
		}
	}
	return nil
}

// apiError says that the node side cannot be read, and why: the missing
// permission by verb and resource, or the kube-apiserver's error.
func apiError(err error, verb, resource, ns string) error {
	where := "cluster-wide"
	if ns != "" {
		where = "in namespace " + ns
	}
	if apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) {
		return fmt.Errorf("the kubeconfig's user may not %s %s %s (%v); grant read-only get and list on pods, events and daemonsets in %s and on nodes (docs/troubleshooting.md)",
			verb, resource, where, err, nsOr(ns))
	}
	return fmt.Errorf("%s %s %s: %w", verb, resource, where, err)
}

func nsOr(ns string) string {
	if ns == "" {
		return "the agent namespace"
	}
	return ns
}

// pinnedNode is the node a DaemonSet pod's required node affinity names
// (metadata.name In [node]), for a pod not scheduled yet.
func pinnedNode(p *corev1.Pod) string {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range t.MatchFields {
			if f.Key == "metadata.name" && f.Operator == corev1.NodeSelectorOpIn && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return ""
}

// newer keeps the most recently created of two pods for one node.
func newer(have, p *corev1.Pod) *corev1.Pod {
	if have == nil || p.CreationTimestamp.After(have.CreationTimestamp.Time) {
		return p
	}
	return have
}

func lastSeen(e corev1.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.FirstTimestamp.Time
}
