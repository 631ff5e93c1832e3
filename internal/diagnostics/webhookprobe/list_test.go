package webhookprobe

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
)

// fakeAPI serves the objects to the dynamic client as the API server
// would, label selectors included.
func fakeAPI(t *testing.T, objs ...map[string]any) *kuberead.Reader {
	lists := map[schema.GroupVersionResource]string{
		validatingWebhooks: "ValidatingWebhookConfigurationList",
		mutatingWebhooks:   "MutatingWebhookConfigurationList",
		apiServices:        "APIServiceList",
		services:           "ServiceList",
		endpointSlices:     "EndpointSliceList",
	}
	ros := make([]runtime.Object, len(objs))
	for i, o := range objs {
		ros[i] = &unstructured.Unstructured{Object: o}
	}
	r, err := kuberead.FromDynamic(dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), lists, ros...), kuberead.Within(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func meta(name, ns string, labels map[string]any) map[string]any {
	m := map[string]any{"name": name}
	if ns != "" {
		m["namespace"] = ns
	}
	if labels != nil {
		m["labels"] = labels
	}
	return m
}

func webhookConfig(kind, name string, hooks ...map[string]any) map[string]any {
	items := make([]any, len(hooks))
	for i, h := range hooks {
		items[i] = h
	}
	return map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": kind, "metadata": meta(name, "", nil), "webhooks": items}
}

func svcHook(name, ns, svc string, port any) map[string]any {
	ref := map[string]any{"namespace": ns, "name": svc}
	if port != nil {
		ref["port"] = port
	}
	return map[string]any{"name": name, "clientConfig": map[string]any{"service": ref}}
}

func apiService(name string, svc map[string]any) map[string]any {
	spec := map[string]any{"group": "x", "version": "v1"}
	if svc != nil {
		spec["service"] = svc
	}
	return map[string]any{"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": meta(name, "", nil), "spec": spec}
}

func service(ns, name, clusterIP string, ports ...map[string]any) map[string]any {
	ps := make([]any, len(ports))
	for i, p := range ports {
		ps[i] = p
	}
	return map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": meta(name, ns, nil), "spec": map[string]any{"clusterIP": clusterIP, "ports": ps}}
}

func endpointSlice(ns, svc, portName string, port int64, addr string, ready bool) map[string]any {
	return map[string]any{
		"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "addressType": "IPv4",
		"metadata":  meta(svc+"-abc", ns, map[string]any{"kubernetes.io/service-name": svc}),
		"ports":     []any{map[string]any{"name": portName, "port": port}},
		"endpoints": []any{map[string]any{"addresses": []any{addr}, "conditions": map[string]any{"ready": ready}}},
	}
}

// TestList: every Service-backed webhook and APIService is listed with its
// port (443 when unset); URL webhooks and local APIServices are left out.
func TestList(t *testing.T) {
	urlHook := map[string]any{"name": "url.example.com", "clientConfig": map[string]any{"url": "https://example.com/"}}
	c := fakeAPI(t,
		webhookConfig("ValidatingWebhookConfiguration", "v", svcHook("deny.example.com", "ns1", "hook", nil), urlHook),
		webhookConfig("MutatingWebhookConfiguration", "m", svcHook("mut.example.com", "ns2", "mhook", int64(8443))),
		apiService("v1.x", map[string]any{"namespace": "ns3", "name": "api", "port": int64(6443)}),
		apiService("v1.local", nil),
	)
	got, err := List(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ValidatingWebhookConfiguration v deny.example.com ns1/hook:443",
		"MutatingWebhookConfiguration m mut.example.com ns2/mhook:8443",
		"APIService v1.x  ns3/api:6443",
	}
	if len(got) != len(want) {
		t.Fatalf("List = %+v, want %d targets", got, len(want))
	}
	for i, tg := range got {
		if s := strings.Join([]string{tg.Kind, tg.Name, tg.Webhook, tg.Service}, " "); s != want[i] {
			t.Errorf("target %d = %q, want %q", i, s, want[i])
		}
	}
}

// TestResolve: the address is the ClusterIP, or with endpoint routing a
// ready endpoint's address and target port; each miss names its cause.
func TestResolve(t *testing.T) {
	port := map[string]any{"name": "https", "port": int64(443), "targetPort": int64(9443)}
	cases := []struct {
		name      string
		objs      []map[string]any
		endpoints bool
		want      string // address, or an error substring
	}{
		{"cluster IP", []map[string]any{service("ns", "hook", "10.0.0.5", port)}, false, "10.0.0.5:443"},
		{"headless", []map[string]any{service("ns", "hook", "None", port)}, false, "has no ClusterIP"},
		{"no such port", []map[string]any{service("ns", "hook", "10.0.0.5", map[string]any{"port": int64(80)})}, false, "has no port 443"},
		{"no service", nil, false, "service ns/hook"},
		{"ready endpoint", []map[string]any{service("ns", "hook", "10.0.0.5", port),
			endpointSlice("ns", "hook", "https", 9443, "192.0.2.7", true)}, true, "192.0.2.7:9443"},
		{"endpoint not ready", []map[string]any{service("ns", "hook", "10.0.0.5", port),
			endpointSlice("ns", "hook", "https", 9443, "192.0.2.7", false)}, true, "no ready endpoint"},
		{"another service's endpoint", []map[string]any{service("ns", "hook", "10.0.0.5", port),
			endpointSlice("ns", "other", "https", 9443, "192.0.2.8", true)}, true, "no ready endpoint"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tg := newTarget("ValidatingWebhookConfiguration", "v", "w", "ns", "hook", nil)
			err := resolve(context.Background(), fakeAPI(t, tc.objs...), &tg, tc.endpoints)
			switch {
			case err != nil && !strings.Contains(err.Error(), tc.want):
				t.Errorf("Resolve: %v, want %q", err, tc.want)
			case err == nil && tg.Address != tc.want:
				t.Errorf("Resolve address %q, want %q", tg.Address, tc.want)
			}
		})
	}
}
