package nodeverdict

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	k8stesting "k8s.io/client-go/testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
)

// clientsetReader reads through a typed clientset: the tests give the
// same objects to it (k8s.io/client-go/kubernetes/fake) and to the
// bounded reader wait and status use, so both must agree.
type clientsetReader struct{ c kubernetes.Interface }

func (r clientsetReader) DaemonSet(ctx context.Context, ns, name string) (*appsv1.DaemonSet, error) {
	return r.c.AppsV1().DaemonSets(ns).Get(ctx, name, metav1.GetOptions{})
}

func (r clientsetReader) Nodes(ctx context.Context) ([]corev1.Node, error) {
	l, err := r.c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	return l.Items, nil
}

func (r clientsetReader) Pods(ctx context.Context, ns, selector string) ([]corev1.Pod, error) {
	l, err := r.c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	return l.Items, nil
}

func (r clientsetReader) Events(ctx context.Context, ns string) ([]corev1.Event, error) {
	l, err := r.c.CoreV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	return l.Items, nil
}

// reactor is a fake's reaction to one verb on one resource.
type reactor struct {
	verb, resource string
	react          k8stesting.ReactionFunc
}

// eachReader runs f with the objects served by the typed fake clientset
// and by the dynamic fake, each with the reactors first.
func eachReader(t *testing.T, objs []runtime.Object, reactors []reactor, f func(*testing.T, Reader)) {
	t.Run("clientset", func(t *testing.T) {
		c := fake.NewClientset(copies(objs)...)
		for _, r := range reactors {
			c.PrependReactor(r.verb, r.resource, r.react)
		}
		f(t, clientsetReader{c})
	})
	t.Run("dynamic", func(t *testing.T) {
		c := dynamicfake.NewSimpleDynamicClient(scheme.Scheme, copies(objs)...)
		for _, r := range reactors {
			c.PrependReactor(r.verb, r.resource, r.react)
		}
		r, err := kuberead.FromDynamic(c, kuberead.Within(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		f(t, Over(r))
	})
}

func copies(objs []runtime.Object) []runtime.Object {
	out := make([]runtime.Object, len(objs))
	for i, o := range objs {
		out[i] = o.DeepCopyObject()
	}
	return out
}
