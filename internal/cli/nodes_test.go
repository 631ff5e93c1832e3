package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// fakeAPIServer answers the four reads of the node side as a
// kube-apiserver would: the agent DaemonSet, one node, its agent pod in
// ImagePullBackOff; with denyPods, listing pods is forbidden (403).
func fakeAPIServer(t *testing.T, root string, denyPods bool) string {
	t.Helper()
	return fakeAPIServerEvents(t, root, denyPods, 0)
}

// fakeAPIServerEvents is fakeAPIServer with extra events in the agent
// namespace, all in one answer whatever the page limit asked.
func fakeAPIServerEvents(t *testing.T, root string, denyPods bool, extra int) string {
	t.Helper()
	r, err := renderedroot.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	agent := r.Bundle.Agent
	ns, name, image := agent.Object.Namespace, agent.Object.Name, agent.Container().Image
	labels := map[string]string{"app": name}
	ds := &appsv1.DaemonSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec:       appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels}, Template: corev1.PodTemplateSpec{Spec: *agent.Spec}}}
	nodes := &corev1.NodeList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "NodeList"}, Items: []corev1.Node{{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: metav1.ObjectMeta{Name: "worker-0"},
		Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "192.0.2.11"}},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
	}}}
	c := agent.Container()
	pods := &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"}, Items: []corev1.Pod{{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: name + "-x1", Namespace: ns, Labels: labels, CreationTimestamp: metav1.NewTime(time.Now().Add(-time.Minute))},
		Spec:       corev1.PodSpec{NodeName: "worker-0", Containers: []corev1.Container{{Name: c.Name, Image: image}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{{Name: c.Name, Image: image,
			State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff", Message: "Back-off pulling image"}}}}},
	}}}
	events := &corev1.EventList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "EventList"}}
	for i := range extra {
		events.Items = append(events.Items, corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("e%d", i), Namespace: ns}})
	}
	forbidden := &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Reason: metav1.StatusReasonForbidden, Code: http.StatusForbidden,
		Message: `pods is forbidden: User "system:serviceaccount:x:y" cannot list resource "pods" in API group "" in the namespace "` + ns + `"`}
	routes := map[string]any{
		"/apis/apps/v1/namespaces/" + ns + "/daemonsets/" + name: ds,
		"/api/v1/nodes":                        nodes,
		"/api/v1/namespaces/" + ns + "/pods":   pods,
		"/api/v1/namespaces/" + ns + "/events": events,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		body, ok := routes[r.URL.Path]
		switch {
		case r.Method != http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		case denyPods && strings.HasSuffix(r.URL.Path, "/pods"):
			w.WriteHeader(http.StatusForbidden)
			body = forbidden
		case !ok:
			w.WriteHeader(http.StatusNotFound)
			body = &metav1.Status{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"}, Status: metav1.StatusFailure, Reason: metav1.StatusReasonNotFound, Code: http.StatusNotFound}
		}
		_ = json.NewEncoder(w).Encode(body)
	}))
	t.Cleanup(srv.Close)
	return fakekas.Kubeconfig(t, "", srv.URL)
}

// nodeSide is the node side as status and wait write it in JSON.
type nodeSide struct {
	Seen    bool   `json:"seen"`
	Unseen  string `json:"unseen"`
	Summary *struct {
		Cause string `json:"cause"`
		Fix   string `json:"fix"`
	} `json:"summary"`
	Nodes []struct {
		Node, Address, Pod, Cause, Detail, Fix string
	} `json:"nodes"`
}

// TestNodeSideCommands: status and wait with --kubeconfig read the node
// side through the kube-apiserver while no agent is connected, and print
// one line per node with its fix, in text and JSON (wait.json too); a
// forbidden read names the verb and resource; without --kubeconfig they
// say the node side is not seen and why.
func TestNodeSideCommands(t *testing.T) {
	root := renderRoot(t)
	kubeconfig := fakeAPIServer(t, root, false)
	image := "ImagePullBackOff: image "
	t.Run("status json", func(t *testing.T) {
		code, stdout, stderr := runCLI(t, "", "status", "--root", root, "--kubeconfig", kubeconfig, "-o", "json")
		n := decodeNodes(t, code, stdout, stderr)
		if !n.Seen || len(n.Nodes) != 1 || n.Nodes[0].Cause != "image-pull" || n.Nodes[0].Node != "worker-0" || !strings.Contains(n.Nodes[0].Detail, image) ||
			n.Summary == nil || n.Summary.Cause != "image-pull" || !strings.Contains(n.Nodes[0].Fix, "pullable") {
			t.Errorf("nodes %+v; want worker-0 image-pull with its image and fix, and the summary", n)
		}
	})
	t.Run("status text", func(t *testing.T) {
		_, stdout, _ := runCLI(t, "", "status", "--root", root, "--kubeconfig", kubeconfig)
		for _, want := range []string{"nodes: image-pull on 1 of 1 node(s) not connected", "  worker-0 (192.0.2.11) pod ", "    fix: make "} {
			if !strings.Contains(stdout, want) {
				t.Errorf("status text lacks %q:\n%s", want, stdout)
			}
		}
	})
	t.Run("wait json and wait.json", func(t *testing.T) {
		gather := t.TempDir()
		code, stdout, stderr := runCLI(t, "", "wait", "--root", root, "--kubeconfig", kubeconfig, "--timeout", "300ms", "-o", "json", "--gather", gather)
		n := decodeNodes(t, code, stdout, stderr)
		if !n.Seen || len(n.Nodes) != 1 || n.Nodes[0].Cause != "image-pull" {
			t.Errorf("wait nodes %+v; want worker-0 image-pull", n)
		}
		data, err := os.ReadFile(filepath.Join(gather, "wait.json"))
		if err != nil || string(data) != stdout {
			t.Errorf("wait.json (%v) is not the -o json verdict:\n%s", err, data)
		}
		if !regexp.MustCompile(`waiting for agents, per node \([0-9.]+m?s elapsed of --timeout 300ms\): image-pull on 1 of 1`).MatchString(stderr) {
			t.Errorf("progress lacks the node side:\n%s", stderr)
		}
	})
	t.Run("forbidden", func(t *testing.T) {
		deny := fakeAPIServer(t, root, true)
		code, stdout, stderr := runCLI(t, "", "status", "--root", root, "--kubeconfig", deny, "-o", "json")
		n := decodeNodes(t, code, stdout, stderr)
		want := "cannot see the node side: the kubeconfig's user may not list pods in namespace openshift-bootstrap-konnectivity"
		if n.Seen || len(n.Nodes) != 0 || !strings.Contains(n.Unseen, want) {
			t.Errorf("nodes %+v; want unseen: %q", n, want)
		}
	})
	t.Run("no kubeconfig", func(t *testing.T) {
		for _, cmd := range [][]string{{"status", "--root", root, "-o", "json"}, {"wait", "--root", root, "--timeout", "300ms", "-o", "json"}} {
			code, stdout, stderr := runCLI(t, "", cmd...)
			n := decodeNodes(t, code, stdout, stderr)
			if n.Seen || !strings.Contains(n.Unseen, "cannot see the node side: no kubeconfig: none found: no --kubeconfig, $KUBECONFIG unset, no "+filepath.Join(root, "opt/openshift/auth/kubeconfig")) {
				t.Errorf("%s: nodes %+v; want unseen for want of a kubeconfig, saying where none was found", cmd[0], n)
			}
		}
	})
}

// decodeNodes checks the command exited 1 (no server, no agent) and
// returns the node side of its JSON.
func decodeNodes(t *testing.T, code int, stdout, stderr string) *nodeSide {
	t.Helper()
	var out struct {
		Nodes *nodeSide `json:"nodes"`
	}
	if code != 1 || json.Unmarshal([]byte(stdout), &out) != nil || out.Nodes == nil {
		t.Fatalf("exit %d, want 1 and JSON with nodes:\n%s%s", code, stdout, stderr)
	}
	return out.Nodes
}
