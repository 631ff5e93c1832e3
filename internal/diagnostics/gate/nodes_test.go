package gate_test

import (
	"context"
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gate"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/nodeverdict"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/netnstest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/certset"
)

// TestWaitNamesTheNode: with the real server and agent of every version
// and a kube-apiserver (a fake) that shows the agent's pod on the node
// running and not ready for two minutes, the gate's verdict carries the
// node's line: the server's own log decides between a refused handshake
// and a port nothing reached, and the node's line's fix becomes the
// verdict's.
func TestWaitNamesTheNode(t *testing.T) {
	for _, ver := range proxyversion.Versions {
		t.Run(ver.Name, func(t *testing.T) { namesTheNode(t, ver) })
	}
}

func namesTheNode(t *testing.T, ver *proxyversion.Version) {
	t.Run("agent port dropped", func(t *testing.T) {
		h := tunneltest.NewWith(t, tunneltest.Options{Overlay: "ipv4", Version: ver})
		port, err := h.Rendered.Bundle.Server.Port("agent-port")
		if err != nil {
			t.Fatal(err)
		}
		netnstest.DropTCP(t, h.Boot, port)
		h.StartServer(t)
		h.StartAgent(t)
		opts := options(h, 5*time.Second, &progressLog{})
		opts.Nodes = nodeSeen(t, h)
		v := gate.Wait(context.Background(), opts)
		l := oneNode(t, v, nodeverdict.PortBlocked)
		rule := fmt.Sprintf("-s %s/32 --dport %d -j ACCEPT", tunneltest.NodeIP, port)
		if !strings.Contains(l.Detail, fmt.Sprintf("agent port %d between node-1 and %s is blocked", port, tunneltest.BootIP)) || !strings.Contains(l.Fix, rule) {
			t.Errorf("line %s\nfix %s\nwant the port between the node and %s, and the rule %q", l, l.Fix, tunneltest.BootIP, rule)
		}
		if v.Fix != l.Fix {
			t.Errorf("the verdict's fix %q is not the node's %q", v.Fix, l.Fix)
		}
	})
	t.Run("agent certificate from another CA", func(t *testing.T) {
		h := tunneltest.NewWith(t, tunneltest.Options{Overlay: "ipv4", Version: ver})
		other := t.TempDir()
		if _, err := certset.EnsureDir(certs.Options{Dir: filepath.Join(other, "certs"), BootstrapIP: netip.MustParseAddr(tunneltest.BootIP)}); err != nil {
			t.Fatal(err)
		}
		h.StartServer(t)
		h.StartAgent(t, "--agent-cert="+filepath.Join(other, "certs", "agent.crt"), "--agent-key="+filepath.Join(other, "certs", "agent.key"))
		opts := options(h, 5*time.Second, &progressLog{})
		opts.Nodes = nodeSeen(t, h)
		v := gate.Wait(context.Background(), opts)
		l := oneNode(t, v, nodeverdict.HandshakeRefused)
		if !strings.Contains(l.Detail, "from "+tunneltest.NodeIP+":") || !strings.Contains(l.Detail, "different CAs") {
			t.Errorf("line %s; want the refusal from %s, named as another CA", l, tunneltest.NodeIP)
		}
	})
	t.Run("no kubeconfig: not seen, and why", func(t *testing.T) {
		h := tunneltest.NewWith(t, tunneltest.Options{Overlay: "ipv4", Version: ver})
		h.StartServer(t)
		v := gate.Wait(context.Background(), options(h, time.Second, &progressLog{}))
		if v.Nodes == nil || v.Nodes.Seen || !strings.Contains(v.Nodes.Unseen, "no kubeconfig") || len(v.Nodes.Nodes) != 0 {
			t.Errorf("nodes %+v; want not seen, for want of a kubeconfig, no node named", v.Nodes)
		}
	})
}

// nodeSeen serves the rendered agent DaemonSet, the node at NodeIP, and
// its agent pod running and not ready for two minutes.
func nodeSeen(t *testing.T, h *tunneltest.Host) nodeverdict.Reader {
	t.Helper()
	ds := h.Rendered.Bundle.Agent.Object
	created := metav1.NewTime(time.Now().Add(-3 * time.Minute))
	labels := map[string]string{"app": ds.Name}
	daemonSet := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: ds.Name, Namespace: ds.Namespace},
		Spec: appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{Spec: *h.Rendered.Bundle.Agent.Spec}},
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}, Status: corev1.NodeStatus{
		Addresses:  []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: tunneltest.NodeIP}},
		Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
	}}
	c := h.Rendered.Bundle.Agent.Container()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: ds.Name + "-abcde", Namespace: ds.Namespace, Labels: labels, CreationTimestamp: created},
		Spec:       corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: c.Name, Image: c.Image}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, PodIP: tunneltest.NodeIP, HostIP: tunneltest.NodeIP,
			Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: metav1.NewTime(time.Now().Add(-2 * time.Minute))}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: c.Name, Image: c.Image, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: created}}}}},
	}
	r, err := kuberead.FromDynamic(dynamicfake.NewSimpleDynamicClient(scheme.Scheme, daemonSet, node, pod), kuberead.Within(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	return nodeverdict.Over(r)
}

// oneNode checks the verdict carries the node side, seen, with the one
// node's line of cause want, and returns that line.
func oneNode(t *testing.T, v *gate.Verdict, want nodeverdict.Cause) nodeverdict.Line {
	t.Helper()
	var text strings.Builder
	_ = v.WriteText(&text)
	if v.Nodes == nil || !v.Nodes.Seen || len(v.Nodes.Nodes) != 1 || v.Nodes.Nodes[0].Cause != want {
		t.Fatalf("want the node side seen, one node with cause %s; got:\n%s", want, text.String())
	}
	if !strings.Contains(text.String(), "  nodes: "+string(want)+" on 1 of 1 node(s) not connected") {
		t.Errorf("the text verdict does not lead the node lines with the summary:\n%s", text.String())
	}
	t.Logf("verdict:\n%s", text.String())
	return v.Nodes.Nodes[0]
}
