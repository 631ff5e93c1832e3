//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/certset"
)

// nodeLine is one node's line of `wait -o json`.
type nodeLine struct {
	Node, Address, Pod, Cause, Detail, Fix string
}

// verdictCase injects one cause on the real node, names the line wait must
// give for it, and undoes it.
type verdictCase struct {
	name string
	// inject breaks the agent; observed tells, from the API alone, when the
	// condition can be seen (the test's own poll); undo repairs it.
	inject, undo func(t *testing.T, c *nodeCase)
	observed     func(c *nodeCase) bool
	cause        string
	detail, fix  []string // each must be in the line's detail, fix
}

// nodeVerdicts: each cause injected on the real node gives the node's
// line, read by `wait --kubeconfig` through the bootstrap kube-apiserver,
// with its fix; the delay from the condition's being observable in the
// API to the line is a figure. After each, the agent is Ready again.
func (c *nodeCase) nodeVerdicts(t *testing.T) {
	ns, ds := c.e.h.b.namespace, c.e.h.b.daemonSet.Name
	badImage := "registry.invalid/kbe2e/no-such-agent:1"
	taint := corev1.Taint{Key: "kbe2e.konnectivity.io/blocked", Value: "yes", Effect: corev1.TaintEffectNoSchedule}
	cases := []verdictCase{
		{name: "image that cannot be pulled",
			inject: func(t *testing.T, c *nodeCase) { c.patchAgent(t, "replace", "image", badImage) },
			undo: func(t *testing.T, c *nodeCase) {
				c.patchAgent(t, "replace", "image", c.e.h.b.daemonSet.Spec.Template.Spec.Containers[0].Image)
			},
			observed: func(c *nodeCase) bool { return c.agentWaiting("ErrImagePull", "ImagePullBackOff") },
			cause:    "image-pull", detail: []string{"image " + badImage + ": "}, fix: []string{"make " + badImage + " pullable from the node"}},
		{name: "agent Secret missing",
			inject: func(t *testing.T, c *nodeCase) {
				c.deleteSecret(t)
				c.deleteAgentPods(t)
			},
			undo: func(t *testing.T, c *nodeCase) {
				c.createSecret(t)
				c.deleteAgentPods(t) // the kubelet's mount retries back off for minutes
			},
			observed: func(c *nodeCase) bool { return c.agentEvent("FailedMount") },
			cause:    "secret-missing", detail: []string{"FailedMount: ", `secret "` + hostlayout.AgentSecretName + `" not found`},
			fix: []string{"the agent's Secret is missing or unreadable in namespace " + ns}},
		{name: "taint without a toleration",
			inject: func(t *testing.T, c *nodeCase) {
				c.setTaint(t, &taint)
				c.patchTolerations(t, []corev1.Toleration{})
				c.deleteAgentPods(t) // a NoSchedule taint does not evict the running pod
			},
			undo: func(t *testing.T, c *nodeCase) {
				c.patchTolerations(t, c.e.h.b.daemonSet.Spec.Template.Spec.Tolerations)
				c.setTaint(t, nil)
			},
			observed: func(c *nodeCase) bool { return c.agentPodCount() == 0 },
			cause:    "taint-not-tolerated",
			detail:   []string{fmt.Sprintf("no pod: taint %s=%s:%s is not tolerated by DaemonSet %s/%s", taint.Key, taint.Value, taint.Effect, ns, ds)},
			fix:      []string{"spec.agent.tolerations", "oc adm taint nodes " + c.node.name + " " + taint.Key + "-"}},
		{name: "agent Secret from another CA",
			inject: func(t *testing.T, c *nodeCase) {
				c.deleteSecret(t)
				c.createSecretFrom(t, otherCA(t, c.e.fam.nodeIP))
				c.deleteAgentPods(t)
			},
			undo: func(t *testing.T, c *nodeCase) {
				c.deleteSecret(t)
				c.createSecret(t)
				c.deleteAgentPods(t)
			},
			observed: func(c *nodeCase) bool { return c.serverRefused() },
			cause:    "handshake-refused", detail: []string{"running, not ready; the server refused its TLS handshake from ", "different CAs"},
			fix: []string{"come from different renders"}},
		{name: "agent crash-looping on a bad flag",
			inject: func(t *testing.T, c *nodeCase) { c.patchAgent(t, "add", "args/-", "--no-such-flag") },
			undo: func(t *testing.T, c *nodeCase) {
				c.patchAgent(t, "replace", "args", c.e.h.b.daemonSet.Spec.Template.Spec.Containers[0].Args)
			},
			observed: func(c *nodeCase) bool { return c.agentWaiting("CrashLoopBackOff") },
			// The agent's last log line is its termination message
			// (FallbackToLogsOnError): the line quotes the refused flag.
			cause: "crash-loop", detail: []string{"CrashLoopBackOff after ", "last exit: exit code 1 (Error)", "unknown flag: --no-such-flag"},
			fix: []string{"the agent exits at start with the message above"}},
		{name: "agent port dropped with nftables",
			// The agents run in the node's pod network and dial the
			// bootstrap address the node holds; a drop on the node's input
			// hook stops their SYNs before the server sees any handshake.
			inject: func(t *testing.T, c *nodeCase) {
				c.nft(t, fmt.Sprintf("add table inet kbe2e_block\nadd chain inet kbe2e_block input { type filter hook input priority -10 ; }\nadd rule inet kbe2e_block input tcp dport %d drop\n", c.agentPort(t)))
				c.deleteAgentPods(t) // an open connection would survive the new rule
			},
			undo: func(t *testing.T, c *nodeCase) {
				c.nft(t, "delete table inet kbe2e_block\n")
				c.deleteAgentPods(t)
			},
			observed: func(c *nodeCase) bool { return c.agentRunningNotReady() },
			cause:    "port-blocked", detail: []string{"no handshake from ", "reached the server", fmt.Sprintf("the agent port %d between ", c.agentPort(t))},
			fix: []string{"open it "}},
	}
	for _, vc := range cases {
		t.Run(vc.name, func(t *testing.T) {
			vc.inject(t, c)
			c.expectLine(t, vc)
			vc.undo(t, c)
			c.agentBack(t)
		})
	}
}

// expectLine runs wait until the node's line has the case's cause, and
// checks its detail and fix. The figure is the time from the test's own
// poll first seeing the condition in the API to the end of the wait run
// that named it. The test looks before and after each run: a condition
// that appears while a run is under way counts from that run's start, as
// the run may have read it at any point (so the figure is at most one
// run late, never early). A condition that flickers (a crash-looping
// container between restarts) may be missed by both looks; that leaves
// the figure out, not the check of the line.
func (c *nodeCase) expectLine(t *testing.T, vc verdictCase) {
	t.Helper()
	var seen time.Time
	var last nodeLine
	var raw string
	_, err := eventually(nodeWait, time.Second, func() error {
		start := time.Now()
		if seen.IsZero() && vc.observed(c) {
			seen = start
		}
		l, out, err := c.waitLine(t)
		last, raw = l, out
		if seen.IsZero() && vc.observed(c) {
			seen = start
		}
		if err != nil {
			return err
		}
		if l.Cause != vc.cause {
			return fmt.Errorf("node %s: %s: %s", l.Node, l.Cause, l.Detail)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("wait never named %s: %v\nlast wait:\n%s", vc.cause, err, raw)
	}
	if seen.IsZero() {
		t.Logf("no figure: the test's own looks never caught the condition that wait named %s", vc.cause)
	} else {
		c.e.figure("per-node verdict "+vc.cause+" after the condition is observable", time.Since(seen).Round(100*time.Millisecond))
	}
	t.Logf("line: %s (%s) pod %s: %s: %s\n  fix: %s", last.Node, last.Address, last.Pod, last.Cause, last.Detail, last.Fix)
	if last.Node != c.node.name || last.Address != c.node.ip {
		t.Errorf("line names node %s (%s), want %s (%s)", last.Node, last.Address, c.node.name, c.node.ip)
	}
	for _, w := range vc.detail {
		if !strings.Contains(last.Detail, w) {
			t.Errorf("detail %q lacks %q", last.Detail, w)
		}
	}
	for _, w := range vc.fix {
		if !strings.Contains(last.Fix, w) {
			t.Errorf("fix %q lacks %q", last.Fix, w)
		}
	}
}

// errReady is waitLine's answer when wait is ready: enough agents are
// connected, so it gives no node side.
var errReady = errors.New("wait is ready: no node side")

// waitLine runs `wait --kubeconfig -o json` on the bootstrap host (the
// node's namespace, where the server's health port is) for one second and
// returns the node's line, or errReady.
func (c *nodeCase) waitLine(t *testing.T) (nodeLine, string, error) {
	kubeconfig := filepath.Join(testDir(t), "kubeconfig")
	writeFiles(t, testDir(t), map[string][]byte{"kubeconfig": []byte(kubeconfigFor("https://"+net.JoinHostPort(c.e.fam.bootIP, "6443"), c.e.kas.token))})
	args := []string{"netns", "exec", c.e.tp.node, cli(t), "wait", "--root", c.e.root, "--kubeconfig", kubeconfig, "--endpoint-routing", "--timeout", "1s", "-o", "json"}
	if log := c.serverLog(); log != "" {
		args = append(args, "--server-log", log)
	}
	cmd := exec.Command("ip", args...)
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nodeLine{}, string(out), err
	}
	var v struct {
		Ready bool `json:"ready"`
		Nodes *struct {
			Seen   bool       `json:"seen"`
			Unseen string     `json:"unseen"`
			Nodes  []nodeLine `json:"nodes"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nodeLine{}, string(out), fmt.Errorf("wait -o json: %v", err)
	}
	switch {
	case v.Ready:
		return nodeLine{}, string(out), errReady
	case v.Nodes == nil:
		return nodeLine{}, string(out), errors.New("not ready and no node side")
	case !v.Nodes.Seen:
		return nodeLine{}, string(out), fmt.Errorf("node side not seen: %s", v.Nodes.Unseen)
	case len(v.Nodes.Nodes) != 1:
		return nodeLine{}, string(out), fmt.Errorf("%d node lines, want 1", len(v.Nodes.Nodes))
	}
	return v.Nodes.Nodes[0], string(out), nil
}

// serverLog is the kubelet's log of the server static pod, which lives in
// the node's /var overlay, not under the rendered root; "" before it exists.
func (c *nodeCase) serverLog() string {
	logs, _ := filepath.Glob(filepath.Join(c.node.paths.dir, "overlay", "up", "var", "log", "pods",
		"kube-system_"+hostlayout.ServerPodName+"-*", "konnectivity-server", "*.log"))
	if len(logs) == 0 {
		return ""
	}
	return logs[len(logs)-1]
}

// serverRefused: the server's log has a refused handshake after the
// injection started (the test's own read of what wait reads).
func (c *nodeCase) serverRefused() bool {
	data, err := os.ReadFile(c.serverLog())
	return err == nil && strings.Contains(string(data), "ServerHandshake(")
}

// otherCA makes certificates for the same bootstrap IP from a CA of their
// own and returns the agent Secret's data made of them.
func otherCA(t *testing.T, bootstrapIP string) map[string][]byte {
	t.Helper()
	dir := filepath.Join(testDir(t), "other-ca")
	if _, err := certset.EnsureDir(certs.Options{Dir: dir, BootstrapIP: netip.MustParseAddr(bootstrapIP)}); err != nil {
		t.Fatal(err)
	}
	data := map[string][]byte{}
	for key, file := range map[string]string{"ca.crt": "ca.crt", "tls.crt": "agent.crt", "tls.key": "agent.key"} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		data[key] = b
	}
	return data
}

// patchAgent applies one JSON patch op to the agent container's field.
func (c *nodeCase) patchAgent(t *testing.T, op, field string, value any) {
	t.Helper()
	c.patchDaemonSet(t, op, "/spec/template/spec/containers/0/"+field, value)
}

func (c *nodeCase) patchTolerations(t *testing.T, tols []corev1.Toleration) {
	t.Helper()
	c.patchDaemonSet(t, "replace", "/spec/template/spec/tolerations", tols)
}

func (c *nodeCase) patchDaemonSet(t *testing.T, op, path string, value any) {
	t.Helper()
	patch, err := json.Marshal([]map[string]any{{"op": op, "path": path, "value": value}})
	if err != nil {
		t.Fatal(err)
	}
	b := c.e.h.b
	if _, err := c.e.kas.client.AppsV1().DaemonSets(b.namespace).Patch(context.Background(), b.daemonSet.Name, types.JSONPatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatalf("patch DaemonSet %s %s: %v", op, path, err)
	}
}

func (c *nodeCase) agentPods() []corev1.Pod {
	pods, err := c.e.kas.client.CoreV1().Pods(c.e.h.b.namespace).List(context.Background(), metav1.ListOptions{LabelSelector: "app=" + hostlayout.AgentName})
	if err != nil {
		return nil
	}
	return pods.Items
}

func (c *nodeCase) agentPodCount() int {
	n := 0
	for _, p := range c.agentPods() {
		if p.DeletionTimestamp == nil {
			n++
		}
	}
	return n
}

// agentWaiting: a live agent pod's container waits for one of reasons.
func (c *nodeCase) agentWaiting(reasons ...string) bool {
	for _, p := range c.agentPods() {
		for _, s := range p.Status.ContainerStatuses {
			if w := s.State.Waiting; w != nil && p.DeletionTimestamp == nil && contains(reasons, w.Reason) {
				return true
			}
		}
	}
	return false
}

// agentEvent: a live agent pod has an event with reason.
func (c *nodeCase) agentEvent(reason string) bool {
	evs, err := c.e.kas.client.CoreV1().Events(c.e.h.b.namespace).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return false
	}
	live := map[string]bool{}
	for _, p := range c.agentPods() {
		live[p.Name] = p.DeletionTimestamp == nil
	}
	for _, e := range evs.Items {
		if e.Reason == reason && live[e.InvolvedObject.Name] {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *nodeCase) deleteAgentPods(t *testing.T) {
	t.Helper()
	for _, p := range c.agentPods() {
		err := c.e.kas.client.CoreV1().Pods(p.Namespace).Delete(context.Background(), p.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Fatalf("delete agent pod %s: %v", p.Name, err)
		}
	}
}

func (c *nodeCase) deleteSecret(t *testing.T) {
	t.Helper()
	if err := c.e.kas.client.CoreV1().Secrets(c.e.h.b.namespace).Delete(context.Background(), hostlayout.AgentSecretName, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete the agent Secret: %v", err)
	}
}

// createSecret creates the agent Secret render wrote, again.
func (c *nodeCase) createSecret(t *testing.T) {
	t.Helper()
	c.createSecretFrom(t, nil)
}

// createSecretFrom creates the agent Secret render wrote with data in place
// of its own when data is given.
func (c *nodeCase) createSecretFrom(t *testing.T, data map[string][]byte) {
	t.Helper()
	s := c.e.h.b.secrets[hostlayout.AgentSecretName].DeepCopy()
	s.ResourceVersion, s.UID = "", ""
	if data != nil {
		s.Data, s.StringData = data, nil
	}
	if _, err := c.e.kas.client.CoreV1().Secrets(c.e.h.b.namespace).Create(context.Background(), s, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create the agent Secret: %v", err)
	}
}

// setTaint puts taint on the node, or takes the test's taint off (nil).
func (c *nodeCase) setTaint(t *testing.T, taint *corev1.Taint) {
	t.Helper()
	nodes := c.e.kas.client.CoreV1().Nodes()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		n, err := nodes.Get(context.Background(), c.node.name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		var keep []corev1.Taint
		for _, x := range n.Spec.Taints {
			if !strings.HasPrefix(x.Key, "kbe2e.konnectivity.io/") {
				keep = append(keep, x)
			}
		}
		if taint != nil {
			keep = append(keep, *taint)
		}
		n.Spec.Taints = keep
		_, err = nodes.Update(context.Background(), n, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("taint node %s: %v", c.node.name, err)
	}
}

// agentBack waits until wait is ready again: the agent connected.
func (c *nodeCase) agentBack(t *testing.T) {
	t.Helper()
	took, err := eventually(nodeWait, time.Second, func() error {
		l, _, err := c.waitLine(t)
		if errors.Is(err, errReady) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("node %s: %s: %s", l.Node, l.Cause, l.Detail)
	})
	if err != nil {
		t.Fatalf("the agent did not come back after the undo: %v", err)
	}
	t.Logf("agent connected again %s after the undo", took.Round(time.Second))
}

// nft runs an nftables script in the node's network namespace.
func (c *nodeCase) nft(t *testing.T, script string) {
	t.Helper()
	cmd := exec.Command("ip", "netns", "exec", c.node.ns, tooltest.System(t, "nft", "nftables"), "-f", "-")
	cmd.Stdin = strings.NewReader(script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nft in %s: %v\n%s\nscript:\n%s", c.node.ns, err, out, script)
	}
}

// agentPort is the server's rendered --agent-port.
func (c *nodeCase) agentPort(t *testing.T) int {
	t.Helper()
	p, err := strconv.Atoi(flagValue(t, c.e.h.server.argv, "--agent-port"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// agentRunningNotReady: a live agent pod's container runs and is not ready.
func (c *nodeCase) agentRunningNotReady() bool {
	for _, p := range c.agentPods() {
		for _, s := range p.Status.ContainerStatuses {
			if p.DeletionTimestamp == nil && s.State.Running != nil && !s.Ready {
				return true
			}
		}
	}
	return false
}
