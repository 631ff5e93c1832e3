package nodeverdict

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// judge gives one node its line: the first cause found, from the
// DaemonSet's reach down to the agent's readiness.
func (st *state) judge(n *corev1.Node) Line {
	l := Line{Node: n.Name, Address: nodeAddress(n, st.in.Tunnel.Addr)}
	ref := st.in.Namespace + "/" + st.in.DaemonSet
	if st.ds == nil {
		l.Cause = NoDaemonSet
		l.Detail = fmt.Sprintf("no pod: DaemonSet %s is not created yet", ref)
		l.Fix = "the cluster manifests are applied by the bootstrap (cluster-bootstrap) once the kube-apiserver is up: check that render wrote the agent manifests into the manifests directory (konnectivity-bundle status) and that cluster-bootstrap is running (journalctl -u bootkube)"
		return l
	}
	p := st.pods[n.Name]
	if miss := unmatchedSelector(st.ds.Spec.Template.Spec.NodeSelector, n.Labels); p == nil && miss != "" {
		l.Cause = NotSelected
		l.Detail = fmt.Sprintf("no pod: DaemonSet %s's nodeSelector needs %s, the node's labels do not have it", ref, miss)
		l.Fix = fmt.Sprintf("label the node (oc label node %s %s) or set the bundle's spec.agent.nodeSelector to select it and render again", n.Name, miss)
		return l
	}
	if ready, since, msg := nodeReady(n); !ready {
		l.Cause = NodeNotReady
		l.Detail = fmt.Sprintf("node not Ready for %s: %s", st.age(since), msg)
		l.Fix = fmt.Sprintf("the node's kubelet is not reporting Ready; on %s: systemctl status kubelet; journalctl -u kubelet", n.Name)
		if p != nil {
			l.Pod = p.Name
		}
		return l
	}
	if p == nil {
		st.noPod(&l, n)
		return l
	}
	l.Pod = p.Name
	st.judgePod(&l, p)
	return l
}

// noPod says why the DaemonSet made no pod for a selected, Ready node: a
// taint it does not tolerate, else its controller. A pod the node
// already runs is judged by its state instead, whatever the node's taints
// and labels say now: a NoSchedule taint added later does not evict it.
func (st *state) noPod(l *Line, n *corev1.Node) {
	ref := st.in.Namespace + "/" + st.in.DaemonSet
	spec := &st.ds.Spec.Template.Spec
	if t := untolerated(spec, n.Spec.Taints); t != nil {
		l.Cause = TaintNotTolerated
		l.Detail = fmt.Sprintf("no pod: taint %s is not tolerated by DaemonSet %s", taintString(t), ref)
		l.Fix = fmt.Sprintf("add a toleration for %s to the bundle's spec.agent.tolerations and render again, or remove the taint (oc adm taint nodes %s %s-)", taintString(t), n.Name, t.Key)
		return
	}
	l.Cause = NoPod
	l.Detail = fmt.Sprintf("no pod: DaemonSet %s made none for this node (desired %d, scheduled %d)", ref, st.ds.Status.DesiredNumberScheduled, st.ds.Status.CurrentNumberScheduled)
	l.Fix = "the DaemonSet controller creates the pods: check that kube-controller-manager runs on the bootstrap host (crictl ps --name kube-controller-manager) and read its log"
}

// judgePod reads the pod's own state: unscheduled, waiting, crashing,
// running but not ready, ready.
func (st *state) judgePod(l *Line, p *corev1.Pod) {
	if p.Spec.NodeName == "" {
		l.Cause = NotScheduled
		l.Detail = "pod not scheduled: " + st.lastEvent(p.Name, "FailedScheduling", condMessage(p, corev1.PodScheduled))
		l.Fix = "the scheduler refuses the node for the reason above: fix it (taint, resources, node affinity), or check that kube-scheduler runs on the bootstrap host"
		return
	}
	c := agentStatus(p)
	if c == nil {
		l.Cause = PodNotRunning
		l.Detail = fmt.Sprintf("pod %s, no container status yet", p.Status.Phase)
		l.Fix = "the kubelet has not started the container: on " + p.Spec.NodeName + ": journalctl -u kubelet"
		return
	}
	if w := c.State.Waiting; w != nil {
		st.waiting(l, p, c, w)
		return
	}
	if c.State.Terminated != nil {
		l.Cause = PodNotRunning
		l.Detail = "agent container ended: " + terminated(c.State.Terminated)
		l.Fix = "the agent must run until teardown: read the message above and the node's kubelet log"
		return
	}
	if c.Ready {
		l.Cause, l.Detail = Connected, "agent pod ready" // until the server's count confirms it (confirm.go)
		return
	}
	st.notReady(l, p)
}

// waiting names a container that is not running: the image, the Secret,
// the crash, or the reason as the kubelet gives it.
func (st *state) waiting(l *Line, p *corev1.Pod, c *corev1.ContainerStatus, w *corev1.ContainerStateWaiting) {
	switch w.Reason {
	case "ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull":
		l.Cause = ImagePull
		l.Detail = fmt.Sprintf("%s: image %s: %s", w.Reason, c.Image, firstNonEmpty(w.Message, st.lastEvent(p.Name, "Failed", "")))
		l.Fix = fmt.Sprintf("make %s pullable from the node: mirror it (ImageContentSourcePolicy/IDMS), fix the pull secret, or set the bundle's agent image and render again", c.Image)
	case "CreateContainerConfigError":
		l.Cause = ConfigError
		l.Detail = "CreateContainerConfigError: " + w.Message
		l.Fix = "create what the message names in namespace " + st.in.Namespace + " (the rendered root's cluster manifests hold the agent's Secret), or render again"
	case "CrashLoopBackOff":
		l.Cause = CrashLoop
		l.Detail = fmt.Sprintf("CrashLoopBackOff after %d restart(s); last exit: %s", c.RestartCount, terminated(c.LastTerminationState.Terminated))
		l.Fix = crashFix(c.LastTerminationState.Terminated, p)
	default:
		if msg := st.mountFailure(p.Name); msg != "" {
			l.Cause = SecretMissing
			l.Detail = "FailedMount: " + msg
			l.Fix = fmt.Sprintf("the agent's Secret is missing or unreadable in namespace %s: apply it from the rendered root's cluster manifests (konnectivity-bundle render writes it), or render again", st.in.Namespace)
			return
		}
		l.Cause = PodNotRunning
		l.Detail = fmt.Sprintf("waiting: %s %s", w.Reason, w.Message)
		l.Fix = "read the pod's events: oc -n " + st.in.Namespace + " describe pod " + p.Name
	}
}

// notReady tells a running agent not ready yet from one refused by the
// server or one whose dials never reach it.
func (st *state) notReady(l *Line, p *corev1.Pod) {
	since := readySince(p)
	for _, h := range st.in.Refused {
		if h.Host == l.Address || h.Host == p.Status.PodIP || h.Host == p.Status.HostIP {
			l.Cause = HandshakeRefused
			l.Detail = fmt.Sprintf("running, not ready; the server refused its TLS handshake from %s: %s", h.Addr, h.problem())
			l.Fix = h.fix()
			return
		}
	}
	age := st.in.Now.Sub(since)
	l.Cause = NotReady
	l.Detail = fmt.Sprintf("running, not ready for %s", st.age(since))
	l.Fix = "wait: the agent is connecting; if it stays not ready, see the next poll's verdict"
	if age < st.in.Grace {
		return
	}
	if !st.in.LogRead {
		l.Detail += "; the server's log was not read, so whether its dials reach the server is unknown"
		l.Fix = "read the server's log for a refused handshake from " + l.Address + ", and check the agent port " + st.portRule(l.Address)
		return
	}
	l.Cause = PortBlocked
	l.Detail = fmt.Sprintf("running, not ready for %s, and no handshake from %s reached the server (its log shows none): the agent port %d between %s and %s is blocked",
		st.age(since), l.Address, st.in.Port, l.Node, st.in.Tunnel.Host)
	l.Fix = "open it " + st.portRule(l.Address)
}

// age is how long ago t was, rounded to the second.
func (st *state) age(t time.Time) string {
	if t.IsZero() {
		return "an unknown time"
	}
	return st.in.Now.Sub(t).Round(time.Second).String()
}

// lastEvent is the newest message of the pod's events with reason, else def.
func (st *state) lastEvent(pod, reason, def string) string {
	es := st.events[pod]
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Reason == reason {
			return es[i].Message
		}
	}
	return def
}

// mountFailure is the newest FailedMount message of a pod whose volume is
// a Secret, naming it.
func (st *state) mountFailure(pod string) string {
	msg := st.lastEvent(pod, "FailedMount", "")
	if strings.Contains(msg, "secret") {
		return msg
	}
	return ""
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// crashFix points at the agent's own words: its termination message when
// the kubelet kept one, else its log on the node (pod logs through the
// kube-apiserver need the tunnel).
func crashFix(t *corev1.ContainerStateTerminated, p *corev1.Pod) string {
	const cause = "a flag an overlay patched in is the usual cause (konnectivity-bundle check on the bundle)"
	if t != nil && strings.TrimSpace(t.Message) != "" {
		return "the agent exits at start with the message above; " + cause
	}
	return fmt.Sprintf("the agent exits at start and left no termination message: read its log on %s (crictl logs $(crictl ps -a -q --name %s | head -1)); %s", p.Spec.NodeName, agentName(p), cause)
}

// agentName is the agent container's name.
func agentName(p *corev1.Pod) string {
	if len(p.Spec.Containers) == 0 {
		return "konnectivity-agent"
	}
	return p.Spec.Containers[0].Name
}
