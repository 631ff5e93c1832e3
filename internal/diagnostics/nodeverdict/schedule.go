package nodeverdict

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// unmatchedSelector is the first key=value of the selector the node's
// labels lack, in key order; "" when the node is selected.
func unmatchedSelector(sel, nodeLabels map[string]string) string {
	keys := make([]string, 0, len(sel))
	for k := range sel {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if v, ok := nodeLabels[k]; !ok || v != sel[k] {
			return k + "=" + sel[k]
		}
	}
	return ""
}

// daemonTolerations are the tolerations the DaemonSet controller adds to
// every pod it makes (pkg/controller/daemon/util), so taints they match
// never keep an agent off a node.
func daemonTolerations(hostNetwork bool) []corev1.Toleration {
	ts := []corev1.Toleration{
		{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
		{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
		{Key: "node.kubernetes.io/disk-pressure", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		{Key: "node.kubernetes.io/memory-pressure", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		{Key: "node.kubernetes.io/pid-pressure", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
		{Key: "node.kubernetes.io/unschedulable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
	}
	if hostNetwork {
		ts = append(ts, corev1.Toleration{Key: "node.kubernetes.io/network-unavailable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
	}
	return ts
}

// untolerated is the first NoSchedule or NoExecute taint of the node that
// neither the pod template nor the DaemonSet controller tolerates.
func untolerated(spec *corev1.PodSpec, taints []corev1.Taint) *corev1.Taint {
	tols := append(slices.Clone(spec.Tolerations), daemonTolerations(spec.HostNetwork)...)
	for i := range taints {
		t := &taints[i]
		if t.Effect == corev1.TaintEffectPreferNoSchedule {
			continue
		}
		if !slices.ContainsFunc(tols, func(tol corev1.Toleration) bool { return tol.ToleratesTaint(klog.Background(), t, false) }) {
			return t
		}
	}
	return nil
}

// taintString writes a taint as oc adm taint takes it: key=value:Effect.
func taintString(t *corev1.Taint) string {
	if t.Value == "" {
		return t.Key + ":" + string(t.Effect)
	}
	return fmt.Sprintf("%s=%s:%s", t.Key, t.Value, t.Effect)
}

// nodeReady reads the node's Ready condition: whether it is True, since
// when it is what it is, and its message.
func nodeReady(n *corev1.Node) (bool, time.Time, string) {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue, c.LastTransitionTime.Time, fmt.Sprintf("Ready=%s %s: %s", c.Status, c.Reason, c.Message)
		}
	}
	return false, time.Time{}, "the node reports no Ready condition yet"
}

// nodeAddress is the node's address agents dial from: an InternalIP of the
// bootstrap IP's family, else any InternalIP, else an ExternalIP.
func nodeAddress(n *corev1.Node, want netip.Addr) string {
	var first string
	for _, typ := range []corev1.NodeAddressType{corev1.NodeInternalIP, corev1.NodeExternalIP} {
		for _, a := range n.Status.Addresses {
			if a.Type != typ {
				continue
			}
			ip, ok := bootstrapip.ParseAddr(a.Address)
			if ok && want.IsValid() && ip.Is4() == want.Is4() {
				return ip.String()
			}
			if first == "" {
				first = a.Address
			}
		}
	}
	return first
}

// agentStatus is the status of the pod's first container, the agent's.
func agentStatus(p *corev1.Pod) *corev1.ContainerStatus {
	if len(p.Spec.Containers) == 0 {
		return nil
	}
	for i := range p.Status.ContainerStatuses {
		if p.Status.ContainerStatuses[i].Name == p.Spec.Containers[0].Name {
			return &p.Status.ContainerStatuses[i]
		}
	}
	return nil
}

// terminated writes an ended container's exit: the message it left (the
// agent's last log line when terminationMessagePolicy reads the log), or
// its reason and code.
func terminated(t *corev1.ContainerStateTerminated) string {
	if t == nil {
		return "none recorded"
	}
	s := fmt.Sprintf("exit code %d (%s)", t.ExitCode, t.Reason)
	if m := lastLine(t.Message); m != "" {
		s += ": " + m
	}
	return s
}

// condMessage is the pod condition's reason and message, or "".
func condMessage(p *corev1.Pod, typ corev1.PodConditionType) string {
	for _, c := range p.Status.Conditions {
		if c.Type == typ {
			return strings.TrimSpace(c.Reason + ": " + c.Message)
		}
	}
	return "no FailedScheduling event yet"
}

// readySince is when the pod's Ready condition last changed (to not
// ready), else when the container started, else when the pod was created.
func readySince(p *corev1.Pod) time.Time {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && !c.LastTransitionTime.IsZero() {
			return c.LastTransitionTime.Time
		}
	}
	if c := agentStatus(p); c != nil && c.State.Running != nil {
		return c.State.Running.StartedAt.Time
	}
	return p.CreationTimestamp.Time
}

// lastLine is a termination message's last non-empty line, cut to 300
// bytes: with FallbackToLogsOnError the kubelet keeps the log's tail (up to
// 80 lines), whose last line says why the agent exited (its usage text
// comes before it).
func lastLine(m string) string {
	lines := strings.Split(strings.TrimSpace(m), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if len(last) > 300 {
		last = last[:300] + "..."
	}
	return last
}
