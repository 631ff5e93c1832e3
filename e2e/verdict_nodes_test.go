//go:build e2e

package e2e

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// statusNodes is the part of `status -o json` the node-line tests read.
type statusNodes struct {
	Agents int `json:"agents"`
	Nodes  *struct {
		Seen    bool `json:"seen"`
		Summary *struct {
			Cause  string `json:"cause"`
			Detail string `json:"detail"`
		} `json:"summary"`
		Nodes []nodeLine `json:"nodes"`
	} `json:"nodes"`
}

// TestVerdictNodeLines: the node side says "connected" only when the real
// server's own agent count (its metrics, per proxy version) agrees with
// the pods' Ready. The kube-apiserver here is a stand-in in the bootstrap
// namespace that serves the rendered DaemonSet, its nodes and pods as the
// kubelet reported them; what is under test is what the real server
// counts. One real agent runs:
//   - two nodes, one pod Ready and one not: the ready one is connected;
//   - three pods Ready: each line says the server counts 1 agent for 3
//     ready pods, and so does the summary;
//   - the server stopped: no line claims a connection.
func TestVerdictNodeLines(t *testing.T) {
	v := newVerdictHost(t, bundle.ModeHTTPConnect, 1)
	t.Run("one ready pod, one pulling: the ready one is connected", func(t *testing.T) {
		s := v.status(t, fakeNodeAPI(t, v, true, false))
		l := oneLine(t, s, "master-0")
		if l.Cause != "connected" || !strings.Contains(l.Detail, "the server counts 1 agent for 1 ready pod") {
			t.Errorf("master-0: %+v; want connected, confirmed by the server's count", l)
		}
		if l := oneLine(t, s, "master-1"); l.Cause != "image-pull" {
			t.Errorf("master-1: %+v; want image-pull", l)
		}
	})
	kubeconfig := fakeNodeAPI(t, v, true, true, true)
	t.Run("three ready pods, one agent counted", func(t *testing.T) {
		s := v.status(t, kubeconfig)
		for _, node := range []string{"master-0", "master-1", "master-2"} {
			if l := oneLine(t, s, node); l.Cause != "not-counted" || !strings.Contains(l.Detail, "ready per kubelet, but the server counts 1 agent for 3 ready pods") {
				t.Errorf("%s: %+v; want not-counted, 1 agent for 3 ready pods", node, l)
			}
		}
		if sum := s.Nodes.Summary; sum == nil || sum.Cause != "not-counted" || !strings.Contains(sum.Detail, "the server counts 1 agent for 3 ready pods") {
			t.Errorf("summary %+v; want not-counted, saying the count", sum)
		}
	})
	v.h.serverProc.Kill()
	t.Run("the server stopped: no connection claimed", func(t *testing.T) {
		s := v.status(t, kubeconfig)
		for _, node := range []string{"master-0", "master-1", "master-2"} {
			if l := oneLine(t, s, node); l.Cause != "server-down" || !strings.Contains(l.Detail, "the server is not running, so no connection is confirmed") {
				t.Errorf("%s: %+v; want server-down", node, l)
			}
		}
		if sum := s.Nodes.Summary; sum == nil || sum.Cause != "server-down" {
			t.Errorf("summary %+v; want server-down", sum)
		}
	})
}

// status runs `status --kubeconfig -o json` in the bootstrap namespace.
func (v *verdictHost) status(t *testing.T, kubeconfig string) statusNodes {
	t.Helper()
	s, code := runCLIJSON[statusNodes](t, v.st.boot, "status", "--root", v.root, "--kubeconfig", kubeconfig, "-o", "json")
	if code == 2 || s.Nodes == nil || !s.Nodes.Seen {
		t.Fatalf("status exit %d, nodes %+v; want the node side seen", code, s.Nodes)
	}
	return s
}

func oneLine(t *testing.T, s statusNodes, node string) nodeLine {
	t.Helper()
	for _, l := range s.Nodes.Nodes {
		if l.Node == node {
			return l
		}
	}
	t.Fatalf("no line for %s in %+v", node, s.Nodes.Nodes)
	return nodeLine{}
}

// fakeNodeAPI serves, inside the bootstrap namespace, the rendered agent
// DaemonSet and one Ready node per entry of ready, each with an agent pod
// that is Running and Ready (true) or in ImagePullBackOff (false), and
// returns a kubeconfig for it.
func fakeNodeAPI(t *testing.T, v *verdictHost, ready ...bool) string {
	t.Helper()
	ds := v.h.b.daemonSet.DeepCopy()
	ds.TypeMeta = metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}
	ns, labels, c := ds.Namespace, ds.Spec.Selector.MatchLabels, ds.Spec.Template.Spec.Containers[0]
	nodes := &corev1.NodeList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "NodeList"}}
	pods := &corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"}}
	for i, r := range ready {
		node := fmt.Sprintf("master-%d", i)
		nodes.Items = append(nodes.Items, corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: node, Labels: ds.Spec.Template.Spec.NodeSelector},
			Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: scaleNodeIP(i)}},
				Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}}})
		st := corev1.ContainerStatus{Name: c.Name, Image: c.Image, Ready: r, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
		phase := corev1.PodRunning
		if !r {
			st.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff", Message: "Back-off pulling image"}}
			phase = corev1.PodPending
		}
		pods.Items = append(pods.Items, corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s-%d", ds.Name, i), Namespace: ns, Labels: labels},
			Spec:   corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: c.Name, Image: c.Image}}},
			Status: corev1.PodStatus{Phase: phase, ContainerStatuses: []corev1.ContainerStatus{st}}})
	}
	routes := map[string]any{
		"/apis/apps/v1/namespaces/" + ns + "/daemonsets/" + ds.Name: ds,
		"/api/v1/nodes":                        nodes,
		"/api/v1/namespaces/" + ns + "/pods":   pods,
		"/api/v1/namespaces/" + ns + "/events": &corev1.EventList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "EventList"}},
	}
	l, err := nsListen(v.st.boot, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(fakekas.Objects(routes))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: " + srv.URL + "}}]\nusers: [{name: u, user: {}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n"
	if err := os.WriteFile(kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return kubeconfig
}
