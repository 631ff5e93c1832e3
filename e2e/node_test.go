//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/netnstest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// nodeWait bounds what a real node does on a loaded machine: register,
// start a pod (sandbox, CNI, container), run the controllers' loops.
const nodeWait = 5 * time.Minute

// TestRealNode installs the bundle the way an install does, on a real node:
// a kubelet (with containerd and the CNI bridge) runs the rendered static
// pod from /etc/kubernetes/manifests, the rendered cluster manifests are
// applied, the DaemonSet controller and the scheduler place the agent, a
// webhook Deployment behind a Service is called by the bootstrap
// kube-apiserver through the tunnel, and teardown takes it all away.
// Run with `make node-e2e` (KB_NODE_E2E=1): it needs the node tools
// (`tools/build.sh node`) and Debian's containerd, and takes minutes. The
// kube-apiserver and node tools are the pair's (KB_PAIR, of one minor;
// `make releases` runs the oldest and the newest pair), and so is the
// proxy; what differs per pair is in node_pairs_test.go.
func TestRealNode(t *testing.T) {
	if os.Getenv("KB_NODE_E2E") != "1" {
		t.Skip("skipping: the real-node test runs with `make node-e2e` (KB_NODE_E2E=1); it needs `tools/build.sh node` and containerd")
	}
	tooltest.System(t, "containerd", "containerd")
	tooltest.System(t, "ctr", "containerd")
	if _, err := os.Stat("/usr/lib/cni/bridge"); err != nil {
		t.Fatalf("the CNI bridge plugin is missing (tools/deps.sh installs containernetworking-plugins): %v", err)
	}
	for _, name := range proxyversion.NodeComponents {
		tool(t, name)
	}
	t.Logf("pair %s: kube-apiserver %s, node tools %s, proxy %s", kasPair, kasPair.KubeAPIServerTool(),
		strings.Join(nodeTools(), ", "), proxyVersion.Name)
	images := nodeImages(t)
	for _, fam := range []family{ipv4, ipv6} {
		t.Run(fam.name, func(t *testing.T) { runRealNode(t, fam, images) })
	}
}

// nodeTools are the node tools' binaries the test runs: the pair's.
func nodeTools() []string {
	var names []string
	for _, c := range proxyversion.NodeComponents {
		names = append(names, kasPair.NodeTool(c))
	}
	return names
}

// nodeCase is one real-node run: the control plane's namespace (etcd, the
// bootstrap kube-apiserver, controller-manager, scheduler) and the node's
// (kubelet, containerd, pods), joined by a veth. The node holds the
// bootstrap IP; the control plane has no route to the pod network, so the
// kube-apiserver reaches a pod only through the tunnel.
type nodeCase struct {
	e    *env
	node *realNode
	docs [][]byte // the cluster manifests to apply (standInForSCC)
}

func runRealNode(t *testing.T, fam family, images []string) {
	ns := netnstest.Add(t, "kbe2e", "boot", "node")
	netnstest.Link(t, ns[0], "b0", fam.bootIP, ns[1], "n0", fam.nodeIP, fam.prefix)
	p := newNodePaths(nodeDir(t))
	// The kubelet's static pod directory and the installer's assets directory
	// exist on a bootstrap node before render.
	for _, d := range []string{"etc/kubernetes/manifests", "opt/openshift"} {
		if err := os.MkdirAll(filepath.Join(p.root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(cli(t), "render", "--overlay", fam.name, "--root", p.root,
		"--bootstrap-ip", fam.nodeIP, "--image", proxyImage, "--proxy-version", proxyVersion.Name).CombinedOutput()
	if err != nil {
		t.Fatalf("render: %v\n%s", err, out)
	}
	c := &nodeCase{e: &env{name: "node/" + fam.name, mode: proxyVersion.DefaultMode, fam: fam,
		tp: &topology{fam: fam, boot: ns[0], node: ns[1]}, root: p.root}}
	c.startControlPlane(t)
	kasURL := "https://" + net.JoinHostPort(fam.bootIP, "6443")
	c.node = startNode(t, "kbe2e-node", ns[1], fam.nodeIP, kasURL, c.e.kas.token, p, images)

	t.Run("node registers and is ready", c.nodeReady)
	t.Run("kubelet runs the rendered static pod", c.staticPodRuns)
	applyDocs(t, c.e.kas, c.docs)
	t.Run("scheduler places the agent on the node", c.agentRuns)
	deployWebhook(t, c.e.kas)
	t.Run("webhook in the pod network allows and denies through the tunnel", c.webhookThroughTunnel)
	t.Run("status sees one agent", func(t *testing.T) { statusUsable(t, c.e.tp.node, c.e.root) })
	t.Run("probe --webhooks reports it reachable", func(t *testing.T) {
		expectOutcomes(t, c.e, map[string]string{"deny.e2e.konnectivity.io": "reachable"})
	})
	t.Run("per-node verdicts", c.nodeVerdicts)
	t.Run("teardown stops the static pod and removes the namespace", c.teardown)
}

// startControlPlane starts etcd, the bootstrap kube-apiserver with the
// rendered egress file as the installer's KAS render applies the override,
// the controller-manager and the scheduler, all in the control plane's namespace.
func (c *nodeCase) startControlPlane(t *testing.T) {
	t.Helper()
	e := c.e
	e.h = mapBundle(t, e.tp, e.root)
	// The kubelet on the node reaches the kube-apiserver over the link, not on loopback.
	wildcard := "0.0.0.0"
	if e.fam.loopback == "::1" {
		wildcard = "::"
	}
	e.kas = startAPIServer(t, e.tp.boot, "bootstrap-kas", e.fam, e.fam.bootIP,
		append([]string{"--egress-selector-config-file=" + e.h.kasEgress, "--bind-address=" + wildcard}, nodeKASFlags(kasPair)...)...)
	kubeconfig := e.kas.kubeconfig(t)
	dir := e.kas.dir
	proctest.Start(t, proctest.Spec{NS: e.tp.boot, Name: "kube-controller-manager", LogDir: dir, Argv: []string{tool(t, "kube-controller-manager"),
		"--kubeconfig=" + kubeconfig, "--leader-elect=false", "--cert-dir=" + filepath.Join(dir, "kcm-serving"),
		"--service-account-private-key-file=" + filepath.Join(dir, "sa.key"), "--v=1"}})
	proctest.Start(t, proctest.Spec{NS: e.tp.boot, Name: "kube-scheduler", LogDir: dir, Argv: []string{tool(t, "kube-scheduler"),
		"--kubeconfig=" + kubeconfig, "--leader-elect=false", "--cert-dir=" + filepath.Join(dir, "scheduler-serving"), "--v=1"}})
	c.docs = standInForSCC(t, e.kas, e.h.b.clusterDocs)
}

// nodeReady: the kubelet registered the node and it is Ready (CNI up).
func (c *nodeCase) nodeReady(t *testing.T) {
	took, err := eventually(nodeWait, time.Second, func() error {
		if !c.node.kubelet.Running() {
			return fmt.Errorf("kubelet exited: %v", c.node.kubelet.Err())
		}
		n, err := c.e.kas.client.CoreV1().Nodes().Get(context.Background(), c.node.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, cond := range n.Status.Conditions {
			if cond.Type == corev1.NodeReady && cond.Status == corev1.ConditionTrue {
				return nil
			}
		}
		return fmt.Errorf("node %s not Ready: %v", c.node.name, n.Status.Conditions)
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, c.node.kubelet.Tail(30))
	}
	c.e.figure("node Ready after kubelet start", took.Round(time.Second))
}

// staticPodRuns: the kubelet started the server from the manifest render
// wrote (its mirror pod is Running and Ready) and the server made its socket.
func (c *nodeCase) staticPodRuns(t *testing.T) {
	name := hostlayout.ServerPodName + "-" + c.node.name
	took := c.waitPodReady(t, "kube-system", name)
	c.e.figure("server static pod Ready", took.Round(time.Second))
	waitForSocket(t, c.e.h.socket)
}

// agentRuns: the DaemonSet controller made one agent pod, the scheduler put
// it on the node, and the kubelet started it in the pod network.
func (c *nodeCase) agentRuns(t *testing.T) {
	b := c.e.h.b
	var pod string
	if _, err := eventually(nodeWait, time.Second, func() error {
		pods, err := c.e.kas.client.CoreV1().Pods(b.namespace).List(context.Background(), metav1.ListOptions{LabelSelector: "app=" + hostlayout.AgentName})
		if err != nil {
			return err
		}
		if len(pods.Items) != 1 || pods.Items[0].Spec.NodeName != c.node.name {
			return fmt.Errorf("want one agent pod on %s, have %d", c.node.name, len(pods.Items))
		}
		pod = pods.Items[0].Name
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	took := c.waitPodReady(t, b.namespace, pod)
	c.e.figure("agent pod Ready after the manifests are applied", took.Round(time.Second))
}

// waitPodReady waits for a pod to be Running and Ready and returns how long it took.
func (c *nodeCase) waitPodReady(t *testing.T, namespace, name string) time.Duration {
	t.Helper()
	var last *corev1.Pod
	took, err := eventually(nodeWait, time.Second, func() error {
		p, err := c.e.kas.client.CoreV1().Pods(namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		last = p
		for _, cond := range p.Status.Conditions {
			if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue {
				return nil
			}
		}
		return fmt.Errorf("pod %s/%s is %s, not Ready", namespace, name, p.Status.Phase)
	})
	if err != nil {
		t.Fatalf("%v\nstatus: %+v\n%s", err, last, c.node.kubelet.Tail(40))
	}
	return took
}

// webhookThroughTunnel: once the webhook pod serves, the bootstrap
// kube-apiserver (no route to the pod network) admits and denies with it.
// It waits for the refusal first: an allowed ConfigMap proves nothing until
// the kube-apiserver has seen the new webhook configuration, and right
// after it is created the first call can pass without any webhook.
func (c *nodeCase) webhookThroughTunnel(t *testing.T) {
	took, err := eventually(nodeWait, time.Second, func() error {
		if err := admit(c.e.kas.client, true); err == nil || !strings.Contains(err.Error(), denyMessage) {
			return fmt.Errorf("labelled ConfigMap: %v, want denied with %q", err, denyMessage)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("no webhook call through the tunnel: %v", err)
	}
	c.e.figure("first webhook call after the webhook Deployment is created", took.Round(time.Second))
	pods, err := c.e.kas.client.CoreV1().Pods(webhookNS).List(context.Background(), metav1.ListOptions{})
	if err != nil || len(pods.Items) != 1 || pods.Items[0].Status.PodIP == "" {
		t.Fatalf("the webhook pod: %v (%d pods)", err, len(pods.Items))
	}
	addr := net.JoinHostPort(pods.Items[0].Status.PodIP, fmt.Sprint(webhookPort))
	if err := dialFrom(c.e.tp.boot, addr); err == nil {
		t.Fatalf("the control plane reaches the webhook pod %s directly: the call need not have used the tunnel", addr)
	}
	if err := dialFrom(c.e.tp.node, addr); err != nil {
		t.Fatalf("the node cannot reach the webhook pod %s: %v", addr, err)
	}
	if err := admit(c.e.kas.client, false); err != nil {
		t.Fatalf("unlabelled ConfigMap: %v, want allowed by the webhook", err)
	}
}

// teardown: teardown removes the static pod manifest (the kubelet stops the
// server and its mirror pod goes) and deletes the namespace, which the
// namespace controller finishes; then the webhook call fails closed.
func (c *nodeCase) teardown(t *testing.T) {
	out, err := exec.Command("ip", "netns", "exec", c.e.tp.boot, cli(t), "teardown", "--strict", "--root", c.e.root,
		"--kubeconfig", c.e.kas.kubeconfig(t)).CombinedOutput()
	if err != nil {
		t.Fatalf("teardown: %v\n%s", err, out)
	}
	t.Logf("teardown:\n%s", out)
	client := c.e.kas.client
	gone := func(what string, get func() error) {
		t.Helper()
		took, err := eventually(nodeWait, time.Second, func() error {
			if err := get(); !apierrors.IsNotFound(err) {
				return fmt.Errorf("%s still there (%v)", what, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		c.e.figure(what+" gone after teardown", took.Round(time.Second))
	}
	gone("server mirror pod", func() error {
		_, err := client.CoreV1().Pods("kube-system").Get(context.Background(), hostlayout.ServerPodName+"-"+c.node.name, metav1.GetOptions{})
		return err
	})
	gone("namespace "+c.e.h.b.namespace, func() error {
		_, err := client.CoreV1().Namespaces().Get(context.Background(), c.e.h.b.namespace, metav1.GetOptions{})
		return err
	})
	if _, err := os.Stat(c.e.h.socket); !os.IsNotExist(err) {
		t.Errorf("the server's socket %s is still there (%v)", c.e.h.socket, err)
	}
	if err := admit(client, false); err == nil {
		t.Fatal("a webhook call still succeeds after teardown; it must fail closed without the tunnel")
	} else {
		t.Logf("webhook call after teardown fails as it should: %v", err)
	}
}
