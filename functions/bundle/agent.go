package bundle

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// agentArgs are the proxy-agent flags. The agent verifies the server
// certificate against --proxy-server-host, so it must be the bootstrap IP
// that the certificate names.
func agentArgs(s *v1alpha1.Spec) []string {
	args := []string{
		"--logtostderr=true",
		"--ca-cert=" + containerCertDir + "/ca.crt",
		"--agent-cert=" + containerCertDir + "/tls.crt",
		"--agent-key=" + containerCertDir + "/tls.key",
		"--proxy-server-host=" + s.BootstrapIP,
		fmt.Sprintf("--proxy-server-port=%d", s.Server.AgentPort),
		fmt.Sprintf("--health-server-port=%d", s.Agent.HealthPort),
		fmt.Sprintf("--admin-server-port=%d", s.Agent.AdminPort),
		"--keepalive-time=" + s.Agent.KeepaliveTime,
		"--probe-interval=" + s.Agent.ProbeInterval,
		"--sync-interval=" + s.Agent.SyncInterval,
		"--sync-interval-cap=" + s.Agent.SyncIntervalCap,
	}
	if s.Agent.Identifiers != "" {
		args = append(args, "--agent-identifiers="+s.Agent.Identifiers)
	}
	return args
}

// agentNamespace holds only bootstrap objects, so deleting it removes them.
// Host-network agents need the privileged pod security level.
func agentNamespace(s *v1alpha1.Spec) *corev1.Namespace {
	level := "restricted"
	if s.Agent.HostNetwork {
		level = "privileged"
	}
	labels := bundleLabels(hostlayout.AppAgent)
	labels["pod-security.kubernetes.io/enforce"] = level
	return &corev1.Namespace{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        s.Namespace,
			Labels:      labels,
			Annotations: placement(hostlayout.PlacementClusterManifest, s.Paths.ClusterManifest(hostlayout.NamespaceFileName)),
		},
	}
}

func agentDaemonSet(s *v1alpha1.Spec) *appsv1.DaemonSet {
	maxUnavailable := intstr.FromString("10%")
	selector := map[string]string{hostlayout.LabelApp: hostlayout.AppAgent}
	return &appsv1.DaemonSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"},
		ObjectMeta: metav1.ObjectMeta{
			Name: hostlayout.AgentName, Namespace: s.Namespace,
			Labels:      bundleLabels(hostlayout.AppAgent),
			Annotations: targeted(s, placement(hostlayout.PlacementClusterManifest, s.Paths.ClusterManifest(hostlayout.DaemonSetFileName))),
		},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: selector},
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{
				Type:          appsv1.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: &maxUnavailable},
			},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: bundleLabels(hostlayout.AppAgent)},
				Spec:       agentPodSpec(s),
			},
		},
	}
}

func agentPodSpec(s *v1alpha1.Spec) corev1.PodSpec {
	return corev1.PodSpec{
		HostNetwork:                  s.Agent.HostNetwork,
		PriorityClassName:            s.Agent.PriorityClassName,
		Tolerations:                  s.Agent.Tolerations,
		NodeSelector:                 s.Agent.NodeSelector,
		AutomountServiceAccountToken: ptr.To(false),
		SecurityContext: &corev1.PodSecurityContext{
			RunAsNonRoot:   ptr.To(true),
			SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		Containers: []corev1.Container{{
			Name:           hostlayout.AgentName,
			Image:          s.Image,
			Command:        []string{AgentCommand},
			Args:           agentArgs(s),
			Resources:      *s.Agent.Resources,
			LivenessProbe:  httpProbe("", "/healthz", s.Agent.HealthPort),
			ReadinessProbe: httpProbe("", "/readyz", s.Agent.HealthPort),
			SecurityContext: &corev1.SecurityContext{
				AllowPrivilegeEscalation: ptr.To(false),
				ReadOnlyRootFilesystem:   ptr.To(true),
				RunAsNonRoot:             ptr.To(true),
				Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
			},
			VolumeMounts: []corev1.VolumeMount{{Name: hostlayout.AgentSecretName, MountPath: containerCertDir, ReadOnly: true}},
			// proxy-agent writes no termination message; its log's last line
			// is why it exited (klog's "error: unknown flag: ..."), which
			// the kubelet then records, so wait can quote it per node.
			TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
		}},
		Volumes: []corev1.Volume{{Name: hostlayout.AgentSecretName, VolumeSource: corev1.VolumeSource{
			Secret: &corev1.SecretVolumeSource{SecretName: hostlayout.AgentSecretName},
		}}},
	}
}
