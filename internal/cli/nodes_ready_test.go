package cli

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// readyAPIServer is a kube-apiserver whose three nodes each run an agent
// pod that is Running and Ready, and returns its kubeconfig.
func readyAPIServer(t *testing.T, root string) string {
	t.Helper()
	r, err := renderedroot.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	agent := r.Bundle.Agent
	ns, name, c := agent.Object.Namespace, agent.Object.Name, agent.Container()
	labels := map[string]string{"app": name}
	ds := &appsv1.DaemonSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}, ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: corev1.PodTemplateSpec{Spec: *agent.Spec}}}
	nodes := &corev1.NodeList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "NodeList"}}
	pods := &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"}}
	for i := range 3 {
		node := fmt.Sprintf("master-%d", i)
		nodes.Items = append(nodes.Items, corev1.Node{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: metav1.ObjectMeta{Name: node},
			Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: fmt.Sprintf("10.0.0.%d", 11+i)}},
				Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}}})
		pods.Items = append(pods.Items, corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", name, i), Namespace: ns, Labels: labels},
			Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: c.Name, Image: c.Image}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{{Name: c.Name, Image: c.Image, Ready: true,
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}}})
	}
	routes := map[string]any{
		"/apis/apps/v1/namespaces/" + ns + "/daemonsets/" + name: ds,
		"/api/v1/nodes":                        nodes,
		"/api/v1/namespaces/" + ns + "/pods":   pods,
		"/api/v1/namespaces/" + ns + "/events": &corev1.EventList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "EventList"}},
	}
	srv := httptest.NewServer(fakekas.Objects(routes))
	t.Cleanup(srv.Close)
	return fakekas.Kubeconfig(t, "", srv.URL)
}

// TestStatusReadyPodsServerDown: every agent pod is Running and Ready and
// no proxy-server runs. status --kubeconfig used to print "every node's
// agent is ready" with each node "connected"; the kubelet's Ready bit is
// not the server's count, so now no line claims a connection and the
// summary says why.
func TestStatusReadyPodsServerDown(t *testing.T) {
	root := renderRoot(t)
	kubeconfig := readyAPIServer(t, root)
	code, stdout, stderr := runCLI(t, "", "status", "--root", root, "--kubeconfig", kubeconfig, "--health-host", "127.0.0.1")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"nodes: server-down on 3 of 3 node(s) not connected, e.g. master-0: agent pod ready; the server is not running, so no connection is confirmed",
		"master-1 (10.0.0.12) pod ", ": server-down: agent pod ready; the server is not running",
		"fix: start the server first",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("status lacks %q:\n%s", want, stdout)
		}
	}
	for _, never := range []string{": connected:", "every node's agent is", "connected to the server"} {
		if strings.Contains(stdout, never) {
			t.Errorf("status says %q with no server running:\n%s", never, stdout)
		}
	}
}
