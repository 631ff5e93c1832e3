package cli

import (
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
)

// hostileObjects are the objects hostileKAS serves, by path: the rendered
// agent DaemonSet, then a node, its agent pod (waiting, with a reason and
// message), an event, a webhook and an APIService, each named, reasoned
// and worded with hostileName.
func hostileObjects(t *testing.T, root string) map[string]any {
	t.Helper()
	r, err := renderedroot.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	agent := r.Bundle.Agent
	ns, name, c := agent.Object.Namespace, agent.Object.Name, agent.Container()
	labels := map[string]string{"app": name}
	meta := func(kind, apiVersion string) metav1.TypeMeta {
		return metav1.TypeMeta{Kind: kind, APIVersion: apiVersion}
	}
	ds := &appsv1.DaemonSet{TypeMeta: meta("DaemonSet", "apps/v1"), ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: corev1.PodTemplateSpec{Spec: *agent.Spec}}}
	nodes := &corev1.NodeList{TypeMeta: meta("NodeList", "v1"), Items: []corev1.Node{{
		TypeMeta: meta("Node", "v1"), ObjectMeta: metav1.ObjectMeta{Name: hostileName},
		Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: hostileName}},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Message: hostileName}}},
	}}}
	pods := &corev1.PodList{TypeMeta: meta("PodList", "v1"), Items: []corev1.Pod{{
		TypeMeta:   meta("Pod", "v1"),
		ObjectMeta: metav1.ObjectMeta{Name: hostileName, Namespace: ns, Labels: labels, CreationTimestamp: metav1.NewTime(time.Now().Add(-time.Minute))},
		Spec:       corev1.PodSpec{NodeName: hostileName, Containers: []corev1.Container{{Name: c.Name, Image: c.Image}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending, Message: hostileName, ContainerStatuses: []corev1.ContainerStatus{{Name: c.Name, Image: c.Image,
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: hostileName, Message: hostileName}}}}},
	}}}
	events := &corev1.EventList{TypeMeta: meta("EventList", "v1"), Items: []corev1.Event{{
		ObjectMeta: metav1.ObjectMeta{Name: "e", Namespace: ns}, Reason: hostileName, Message: hostileName, Type: corev1.EventTypeWarning,
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: hostileName},
	}}}
	port, path := int32(443), hostileName
	service := &admissionv1.ServiceReference{Namespace: hostileName, Name: hostileName, Path: &path, Port: &port}
	none := admissionv1.SideEffectClassNone
	validating := &admissionv1.ValidatingWebhookConfigurationList{TypeMeta: meta("ValidatingWebhookConfigurationList", "admissionregistration.k8s.io/v1"),
		Items: []admissionv1.ValidatingWebhookConfiguration{{ObjectMeta: metav1.ObjectMeta{Name: hostileName},
			Webhooks: []admissionv1.ValidatingWebhook{{Name: hostileName, ClientConfig: admissionv1.WebhookClientConfig{Service: service},
				SideEffects: &none, AdmissionReviewVersions: []string{"v1"}}}}}}
	mutating := &admissionv1.MutatingWebhookConfigurationList{TypeMeta: meta("MutatingWebhookConfigurationList", "admissionregistration.k8s.io/v1"),
		Items: []admissionv1.MutatingWebhookConfiguration{{ObjectMeta: metav1.ObjectMeta{Name: hostileName},
			Webhooks: []admissionv1.MutatingWebhook{{Name: hostileName, ClientConfig: admissionv1.WebhookClientConfig{Service: service},
				SideEffects: &none, AdmissionReviewVersions: []string{"v1"}}}}}}
	apiServices := map[string]any{"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIServiceList", "items": []any{map[string]any{
		"metadata": map[string]any{"name": hostileName},
		"spec":     map[string]any{"group": hostileName, "version": hostileName, "service": map[string]any{"namespace": hostileName, "name": hostileName, "port": 443}},
	}}}
	return map[string]any{
		"/apis/apps/v1/namespaces/" + ns + "/daemonsets/" + name: ds,
		"/api/v1/nodes":                        nodes,
		"/api/v1/namespaces/" + ns + "/pods":   pods,
		"/api/v1/namespaces/" + ns + "/events": events,
		"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations": validating,
		"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations":   mutating,
		"/apis/apiregistration.k8s.io/v1/apiservices":                           apiServices,
	}
}
