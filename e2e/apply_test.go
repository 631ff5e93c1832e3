//go:build e2e

package e2e

import (
	"context"
	"sort"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"
)

// applyDocs creates every rendered cluster object through the apiserver's
// real validation, Namespaces first, as cluster-bootstrap would.
func applyDocs(t *testing.T, a *apiserver, docs [][]byte) {
	t.Helper()
	dyn, err := dynamic.NewForConfig(a.cfg)
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(a.client.Discovery()))
	var objs []*unstructured.Unstructured
	for _, d := range docs {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(d, &u.Object); err != nil {
			t.Fatalf("rendered cluster manifest: %v", err)
		}
		objs = append(objs, u)
	}
	sort.SliceStable(objs, func(i, j int) bool { return objs[i].GetKind() == "Namespace" && objs[j].GetKind() != "Namespace" })
	for _, u := range objs {
		gvk := u.GroupVersionKind()
		m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			t.Fatalf("%s: %v", gvk, err)
		}
		var ri dynamic.ResourceInterface = dyn.Resource(m.Resource)
		if u.GetNamespace() != "" {
			ri = dyn.Resource(m.Resource).Namespace(u.GetNamespace())
		}
		if _, err := ri.Create(context.Background(), u, metav1.CreateOptions{FieldValidation: "Strict"}); err != nil {
			t.Fatalf("apiserver refused rendered %s %s/%s: %v", gvk.Kind, u.GetNamespace(), u.GetName(), err)
		}
	}
}

// dryRunStaticPod submits the server static pod with server-side dry run: the
// apiserver validates and admits it without a kubelet. The default service
// account exists on a real cluster (the controller manager makes it).
func dryRunStaticPod(t *testing.T, a *apiserver, pod *corev1.Pod) {
	t.Helper()
	ctx := context.Background()
	_, err := a.client.CoreV1().ServiceAccounts(pod.Namespace).Create(ctx,
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create default service account: %v", err)
	}
	if _, err := a.client.CoreV1().Pods(pod.Namespace).Create(ctx, pod.DeepCopy(),
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"}); err != nil {
		t.Fatalf("apiserver refused the rendered static pod: %v", err)
	}
}
