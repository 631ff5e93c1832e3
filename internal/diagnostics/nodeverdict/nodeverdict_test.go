package nodeverdict

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

const (
	ns     = "openshift-bootstrap-konnectivity"
	dsName = "konnectivity-agent"
	image  = "quay.io/example/proxy-agent:v0.28"
)

var now = time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)

func ago(d time.Duration) metav1.Time { return metav1.NewTime(now.Add(-d)) }

func input() Input {
	return Input{Namespace: ns, DaemonSet: dsName, Tunnel: bundlemodel.Tunnel{Host: "10.0.0.1", Addr: netip.MustParseAddr("10.0.0.1")}, Port: 8091, LogRead: true, Now: now, Root: "/",
		Server: Server{Agents: 3, Counted: true}}
}

func node(name, ip string, edit ...func(*corev1.Node)) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/os": "linux"}},
		Status: corev1.NodeStatus{
			Addresses:  []corev1.NodeAddress{{Type: corev1.NodeHostName, Address: name}, {Type: corev1.NodeInternalIP, Address: ip}},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastTransitionTime: ago(time.Hour)}},
		},
	}
	for _, e := range edit {
		e(n)
	}
	return n
}

func daemonSet(edit ...func(*appsv1.DaemonSet)) *appsv1.DaemonSet {
	d := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: dsName, Namespace: ns},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": dsName}},
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				Containers:  []corev1.Container{{Name: "konnectivity-agent", Image: image}},
				Tolerations: []corev1.Toleration{{Operator: corev1.TolerationOpExists}},
			}},
		},
		Status: appsv1.DaemonSetStatus{DesiredNumberScheduled: 1, CurrentNumberScheduled: 0},
	}
	for _, e := range edit {
		e(d)
	}
	return d
}

// pod is the agent pod on nodeName with its container in state st.
func pod(nodeName string, st corev1.ContainerStatus, edit ...func(*corev1.Pod)) *corev1.Pod {
	st.Name, st.Image = "konnectivity-agent", image
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: dsName + "-" + nodeName, Namespace: ns, Labels: map[string]string{"app": dsName}, CreationTimestamp: ago(5 * time.Minute)},
		Spec:       corev1.PodSpec{NodeName: nodeName, Containers: []corev1.Container{{Name: "konnectivity-agent", Image: image}}},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{st}},
	}
	for _, e := range edit {
		e(p)
	}
	return p
}

func waiting(reason, msg string) corev1.ContainerStatus {
	return corev1.ContainerStatus{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: msg}}}
}

func running(ready bool) corev1.ContainerStatus {
	return corev1.ContainerStatus{Ready: ready, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: ago(10 * time.Minute)}}}
}

// notReadyFor marks the pod's Ready condition False since d ago.
func notReadyFor(d time.Duration) func(*corev1.Pod) {
	return func(p *corev1.Pod) {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse, LastTransitionTime: ago(d)})
	}
}

func event(pod, reason, msg string) *corev1.Event {
	return &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: pod + "." + strings.ToLower(reason), Namespace: ns},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: pod, Namespace: ns},
		Reason:         reason, Message: msg, LastTimestamp: ago(time.Second), Type: corev1.EventTypeWarning,
	}
}

// TestJudge: each situation gives its node the cause, and a detail and fix
// naming what a person needs (the image, the Secret, the taint, the
// message, the port rule).
func TestJudge(t *testing.T) {
	const refusedCA = `I1127 ServerHandshake("10.0.0.5:41234") failed: tls: failed to verify certificate: x509: certificate signed by unknown authority`
	const refusedExpired = `I1127 ServerHandshake("10.0.0.5:41234") failed: tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2026-11-27T09:00:00Z is after 2026-11-26T00:00:00Z`
	cases := []struct {
		name       string
		objs       []runtime.Object
		refused    []string
		logUnread  bool
		want       Cause
		wantDetail []string
		wantFix    []string
	}{
		{name: "DaemonSet not created", objs: []runtime.Object{node("w1", "10.0.0.5")},
			want: NoDaemonSet, wantDetail: []string{"DaemonSet " + ns + "/" + dsName + " is not created yet"}, wantFix: []string{"cluster-bootstrap"}},
		{name: "node selector leaves the node out", objs: []runtime.Object{node("w1", "10.0.0.5"), daemonSet(func(d *appsv1.DaemonSet) {
			d.Spec.Template.Spec.NodeSelector = map[string]string{"node-role.kubernetes.io/worker": ""}
		})}, want: NotSelected, wantDetail: []string{"nodeSelector needs node-role.kubernetes.io/worker="}, wantFix: []string{"oc label node w1 node-role.kubernetes.io/worker="}},
		{name: "taint not tolerated", objs: []runtime.Object{
			node("w1", "10.0.0.5", func(n *corev1.Node) {
				n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "infra", Effect: corev1.TaintEffectNoSchedule}}
			}),
			daemonSet(func(d *appsv1.DaemonSet) {
				d.Spec.Template.Spec.Tolerations = []corev1.Toleration{{Key: "node-role.kubernetes.io/master", Operator: corev1.TolerationOpExists}}
			}),
		}, want: TaintNotTolerated, wantDetail: []string{"taint dedicated=infra:NoSchedule is not tolerated"}, wantFix: []string{"spec.agent.tolerations", "oc adm taint nodes w1 dedicated-"}},
		{name: "a taint the DaemonSet controller tolerates is no cause", objs: []runtime.Object{
			node("w1", "10.0.0.5", func(n *corev1.Node) {
				n.Spec.Taints = []corev1.Taint{{Key: "node.kubernetes.io/unschedulable", Effect: corev1.TaintEffectNoSchedule}}
			}),
			daemonSet(func(d *appsv1.DaemonSet) { d.Spec.Template.Spec.Tolerations = nil }),
		}, want: NoPod, wantDetail: []string{"made none for this node (desired 1, scheduled 0)"}, wantFix: []string{"kube-controller-manager"}},
		{name: "a running pod on a node tainted since is judged by its state", objs: []runtime.Object{
			node("w1", "10.0.0.5", func(n *corev1.Node) {
				n.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "infra", Effect: corev1.TaintEffectNoSchedule}}
			}),
			daemonSet(func(d *appsv1.DaemonSet) { d.Spec.Template.Spec.Tolerations = nil }),
			pod("w1", running(true)),
		}, want: Connected},
		{name: "node not ready", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5", func(n *corev1.Node) {
			n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionUnknown, Reason: "NodeStatusUnknown", Message: "Kubelet stopped posting node status.", LastTransitionTime: ago(3 * time.Minute)}}
		})}, want: NodeNotReady, wantDetail: []string{"node not Ready for 3m0s", "Kubelet stopped posting node status."}, wantFix: []string{"journalctl -u kubelet"}},
		{name: "no pod", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5")},
			want: NoPod, wantDetail: []string{"DaemonSet " + ns + "/" + dsName + " made none"}},
		{name: "pod not scheduled", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"),
			pod("", corev1.ContainerStatus{}, func(p *corev1.Pod) {
				p.Name = dsName + "-x"
				p.Status = corev1.PodStatus{Phase: corev1.PodPending}
				p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
					NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"w1"}}}}}}}}
			}),
			event(dsName+"-x", "FailedScheduling", "0/1 nodes are available: 1 Insufficient cpu."),
		}, want: NotScheduled, wantDetail: []string{"pod not scheduled: 0/1 nodes are available: 1 Insufficient cpu."}},
		{name: "image cannot be pulled", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"),
			pod("w1", waiting("ImagePullBackOff", `Back-off pulling image "`+image+`"`))},
			want: ImagePull, wantDetail: []string{"ImagePullBackOff: image " + image}, wantFix: []string{"make " + image + " pullable"}},
		{name: "agent Secret missing", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"),
			pod("w1", waiting("ContainerCreating", "")),
			event(dsName+"-w1", "FailedMount", `MountVolume.SetUp failed for volume "konnectivity-agent-certs" : secret "konnectivity-agent-certs" not found`),
		}, want: SecretMissing, wantDetail: []string{`secret "konnectivity-agent-certs" not found`}, wantFix: []string{"Secret is missing", ns}},
		{name: "container config error", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"),
			pod("w1", waiting("CreateContainerConfigError", `secret "konnectivity-agent-certs" not found`))},
			want: ConfigError, wantDetail: []string{`CreateContainerConfigError: secret "konnectivity-agent-certs" not found`}},
		{name: "crash-looping", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"),
			pod("w1", func() corev1.ContainerStatus {
				s := waiting("CrashLoopBackOff", "back-off 40s restarting failed container")
				s.RestartCount = 4
				s.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", Message: "Error: unknown flag: --no-such-flag"}
				return s
			}())},
			want: CrashLoop, wantDetail: []string{"after 4 restart(s)", "exit code 1 (Error): Error: unknown flag: --no-such-flag"}, wantFix: []string{"with the message above"}},
		{name: "crash-looping without a termination message", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"),
			pod("w1", func() corev1.ContainerStatus {
				s := waiting("CrashLoopBackOff", "back-off 10s restarting failed container")
				s.RestartCount = 1
				s.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}
				return s
			}())},
			want: CrashLoop, wantDetail: []string{"last exit: exit code 1 (Error)"}, wantFix: []string{"left no termination message: read its log on w1 (crictl logs $(crictl ps -a -q --name konnectivity-agent | head -1))"}},
		{name: "running, not ready yet", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), pod("w1", running(false), notReadyFor(10*time.Second))},
			want: NotReady, wantDetail: []string{"running, not ready for 10s"}},
		{name: "server refused the node's handshake: CA", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), pod("w1", running(false), notReadyFor(2*time.Minute))},
			refused: []string{refusedCA}, want: HandshakeRefused, wantDetail: []string{"from 10.0.0.5:41234", "different CAs", "unknown authority"}, wantFix: []string{"different renders"}},
		{name: "server refused the node's handshake: validity", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), pod("w1", running(false), notReadyFor(2*time.Minute))},
			refused: []string{refusedExpired}, want: HandshakeRefused, wantDetail: []string{"outside its validity"}, wantFix: []string{"clocks"}},
		{name: "another node's refused handshake is not this node's", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.6"), pod("w1", running(false), notReadyFor(10*time.Second))},
			refused: []string{refusedCA}, want: NotReady},
		{name: "never ready, nothing reached the server: the port", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), pod("w1", running(false), notReadyFor(2*time.Minute))},
			want: PortBlocked, wantDetail: []string{"not ready for 2m0s", "no handshake from 10.0.0.5 reached the server", "agent port 8091 between w1 and 10.0.0.1"},
			wantFix: []string{"konnectivity-bundle ports / --output nftables --from 10.0.0.5/32", "iptables -w -I INPUT -p tcp -s 10.0.0.5/32 --dport 8091 -j ACCEPT"}},
		{name: "never ready, server log unread: no guess", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), pod("w1", running(false), notReadyFor(2*time.Minute))},
			logUnread: true, want: NotReady, wantDetail: []string{"the server's log was not read"}},
		{name: "connected", objs: []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), pod("w1", running(true))},
			want: Connected, wantDetail: []string{"agent pod ready, and the server counts 3 agents for 1 ready pod"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := input()
			in.LogRead = !tc.logUnread
			for _, l := range tc.refused {
				h, ok := ParseHandshake(l)
				if !ok {
					t.Fatalf("ParseHandshake(%q) refused the line", l)
				}
				in.Refused = append(in.Refused, h)
			}
			eachReader(t, tc.objs, nil, func(t *testing.T, r Reader) {
				rep := Judge(context.Background(), r, in)
				if !rep.Seen || len(rep.Nodes) != 1 {
					t.Fatalf("report %+v; want the node side seen with one node", rep)
				}
				l := rep.Nodes[0]
				if l.Cause != tc.want {
					t.Fatalf("cause %s (%s); want %s", l.Cause, l.Detail, tc.want)
				}
				for _, w := range tc.wantDetail {
					if !strings.Contains(l.Detail, w) {
						t.Errorf("detail %q does not say %q", l.Detail, w)
					}
				}
				for _, w := range tc.wantFix {
					if !strings.Contains(l.Fix, w) {
						t.Errorf("fix %q does not say %q", l.Fix, w)
					}
				}
				if l.Cause != Connected && l.Fix == "" {
					t.Errorf("line %s has no fix", l)
				}
			})
		})
	}
}

// TestCannotSee: a read the kubeconfig may not make leaves the node side
// unseen, naming the verb and resource; any other API error names the read.
func TestCannotSee(t *testing.T) {
	cases := []struct {
		verb, resource string
		err            error
		want           string
	}{
		{"get", "daemonsets", forbidden("daemonsets"), "may not get daemonsets in namespace " + ns},
		{"list", "nodes", forbidden("nodes"), "may not list nodes cluster-wide"},
		{"list", "pods", forbidden("pods"), "may not list pods in namespace " + ns},
		{"list", "events", forbidden("events"), "may not list events in namespace " + ns},
		{"list", "nodes", errors.New("connection refused"), "list nodes cluster-wide: connection refused"},
	}
	for _, tc := range cases {
		t.Run(tc.verb+" "+tc.resource, func(t *testing.T) {
			deny := []reactor{{tc.verb, tc.resource, func(k8stesting.Action) (bool, runtime.Object, error) { return true, nil, tc.err }}}
			objs := []runtime.Object{daemonSet(), node("w1", "10.0.0.5")}
			eachReader(t, objs, deny, func(t *testing.T, r Reader) {
				rep := Judge(context.Background(), r, input())
				if rep.Seen || len(rep.Nodes) != 0 || rep.Summary != nil {
					t.Fatalf("report %+v; want the node side unseen, no node named", rep)
				}
				if !strings.HasPrefix(rep.Unseen, "cannot see the node side: ") || !strings.Contains(rep.Unseen, tc.want) {
					t.Errorf("unseen %q; want it to say %q", rep.Unseen, tc.want)
				}
			})
		})
	}
}

func forbidden(resource string) error {
	return apierrors.NewForbidden(schema.GroupResource{Resource: resource}, "", errors.New("RBAC: access denied"))
}

// TestSummary: the summary is the cause most nodes not connected share,
// with the count; connected nodes count for nothing; a tie goes to the
// cause earlier in a node's life.
func TestSummary(t *testing.T) {
	pull := pod("w1", waiting("ErrImagePull", "manifest unknown"))
	pull2 := pod("w2", waiting("ErrImagePull", "manifest unknown"))
	cases := []struct {
		name      string
		objs      []runtime.Object
		want      Cause
		nodes, of int
	}{
		{"two pulls, one connected", []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), node("w2", "10.0.0.6"), node("w3", "10.0.0.7"), pull, pull2, pod("w3", running(true))}, ImagePull, 2, 2},
		{"two pulls beat one missing pod", []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), node("w2", "10.0.0.6"), node("w3", "10.0.0.7"), pull, pull2}, ImagePull, 2, 3},
		{"a tie goes to the earlier cause", []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), node("w2", "10.0.0.6"), pull}, NoPod, 1, 2},
		{"all connected: no summary", []runtime.Object{daemonSet(), node("w1", "10.0.0.5"), pod("w1", running(true))}, "", 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := Judge(context.Background(), clientsetReader{fake.NewClientset(tc.objs...)}, input())
			s := rep.Summary
			if tc.want == "" {
				if s != nil {
					t.Fatalf("summary %+v; want none", s)
				}
				return
			}
			if s == nil || s.Cause != tc.want || s.Nodes != tc.nodes || s.Of != tc.of || s.Fix == "" {
				t.Fatalf("summary %+v; want %s on %d of %d with a fix", s, tc.want, tc.nodes, tc.of)
			}
		})
	}
}

// TestParseHandshake reads the server's refused-handshake lines and
// nothing else.
func TestParseHandshake(t *testing.T) {
	h, ok := ParseHandshake(`2026/11/25 ServerHandshake("[fd00::5]:1234") failed: remote error: tls: bad certificate`)
	if !ok || h.Host != "fd00::5" || h.Addr != "[fd00::5]:1234" || h.Error != "remote error: tls: bad certificate" {
		t.Errorf("got %+v, %v", h, ok)
	}
	// As the real proxy-server logs it: inside grpc-go's quoted desc.
	const real = `2026/11/27 08:19:04 INFO: [core] [Server #1] grpc: Server.Serve failed to create ServerTransport: connection error: desc = "ServerHandshake(\"192.0.2.11:45780\") failed: tls: failed to verify certificate: x509: certificate signed by unknown authority (possibly because of \"x509: ECDSA verification failure\" while trying to verify candidate authority certificate \"konnectivity-signer\")"`
	h, ok = ParseHandshake(real)
	wantErr := `tls: failed to verify certificate: x509: certificate signed by unknown authority (possibly because of "x509: ECDSA verification failure" while trying to verify candidate authority certificate "konnectivity-signer")`
	if !ok || h.Host != "192.0.2.11" || h.Addr != "192.0.2.11:45780" || h.Error != wantErr {
		t.Errorf("got %+v, %v; want host 192.0.2.11 and error %q", h, ok, wantErr)
	}
	if _, ok := ParseHandshake("I1127 grpc: Server.Serve accepted a connection"); ok {
		t.Error("a line without ServerHandshake was read as a refused handshake")
	}
}
