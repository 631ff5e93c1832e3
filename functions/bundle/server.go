package bundle

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/tlsprofile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// healthBindAddress is where the server's health port listens and where its
// probes look: loopback, since nothing off the bootstrap host needs it.
const healthBindAddress = "127.0.0.1"

// serverArgs are the proxy-server flags. UDS for the KAS means --server-port=0
// and no --server-* TLS flags; agents authenticate with mTLS against the
// cluster CA (functions/check/README.md, rules server-port-with-uds,
// server-cert-with-uds and cluster-ca-cert-missing).
func serverArgs(s *v1alpha1.Spec) []string {
	args := []string{
		"--logtostderr=true",
		"--mode=" + s.Mode,
		"--uds-name=" + s.Paths.HostSocketPath(),
		"--delete-existing-uds-file=true",
		"--server-port=0",
		fmt.Sprintf("--agent-port=%d", s.Server.AgentPort),
	}
	if s.Server.AgentBindAddress != "" {
		args = append(args, "--agent-bind-address="+s.Server.AgentBindAddress)
	}
	args = append(args,
		fmt.Sprintf("--health-port=%d", s.Server.HealthPort),
		// Only the kubelet's probes (host 127.0.0.1) and status need the
		// health port; upstream binds it to every interface of the host.
		"--health-bind-address="+healthBindAddress,
		fmt.Sprintf("--admin-port=%d", s.Server.AdminPort),
		"--cluster-cert="+containerCertDir+"/server.crt",
		"--cluster-key="+containerCertDir+"/server.key",
		"--cluster-ca-cert="+containerCertDir+"/ca.crt",
		"--keepalive-time="+s.Server.KeepaliveTime,
		"--proxy-strategies="+joinComma(s.Server.ProxyStrategies),
		"--server-count=1",
	)
	// The protections newer proxies have (docs/proxy-versions.md); a target
	// without the flag gets none, since it would refuse to start.
	for _, p := range proxyversion.Protections {
		if s.Version().Has(p.Flag) {
			args = append(args, "--"+p.Flag+"="+s.Server.Protection(p))
		}
	}
	// The TLS profile's suites, Intermediate's when the config names none
	// (docs/config.md, "The TLS profile"); none when only TLS 1.3 is taken.
	if l := s.Listener(); l != nil && len(l.Suites) > 0 {
		args = append(args, "--"+proxyversion.FlagCipherSuites+"="+joinComma(l.Suites))
	}
	return args
}

// serverPod is the static pod the bootstrap kubelet runs. Readiness probes
// /healthz: /readyz stays 500 until an agent connects, and forever with some
// strategy/identifier combinations (functions/check/README.md, rule
// readyz-never-ready).
func serverPod(s *v1alpha1.Spec) *corev1.Pod {
	directory, orCreate := corev1.HostPathDirectory, corev1.HostPathDirectoryOrCreate
	probe := httpProbe(healthBindAddress, "/healthz", s.Server.HealthPort)
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name: hostlayout.ServerPodName, Namespace: hostlayout.ServerPodNamespace,
			Labels:      bundleLabels(hostlayout.AppServer),
			Annotations: tlsAsked(s, targeted(s, placement(hostlayout.PlacementStaticPod, s.Paths.StaticPodManifest))),
		},
		Spec: corev1.PodSpec{
			HostNetwork:       true,
			PriorityClassName: s.Server.PriorityClassName,
			Containers: []corev1.Container{{
				Name:           hostlayout.ServerPodName,
				Image:          s.Image,
				Command:        []string{ServerCommand},
				Args:           serverArgs(s),
				Env:            serverEnv,
				Resources:      *s.Server.Resources,
				LivenessProbe:  probe,
				ReadinessProbe: probe,
				VolumeMounts: []corev1.VolumeMount{
					{Name: bootstrapConfigsName, MountPath: s.Paths.BootstrapConfigDir},
					{Name: serverCertsVolume, MountPath: containerCertDir, ReadOnly: true},
				},
			}},
			Volumes: []corev1.Volume{
				hostPathVolume(bootstrapConfigsName, s.Paths.BootstrapConfigDir, &orCreate),
				hostPathVolume(serverCertsVolume, s.Paths.CertDir, &directory),
			},
		},
	}
}

// tlsAsked records the TLS profile the agent listener follows, for
// check's tls-profile-not-honoured.
func tlsAsked(s *v1alpha1.Spec, annotations map[string]string) map[string]string {
	if l := s.Listener(); l != nil {
		tlsprofile.Annotate(annotations, l.Settings)
	}
	return annotations
}

// serverEnv makes grpc-go log, among its info lines, each agent TLS
// handshake the server refuses (`ServerHandshake("ADDR") failed: tls: ...`):
// at its default severity the server says nothing about them, and they
// look from the bootstrap host exactly like a closed agent port (the server
// resets such a connection, so not even a TIME_WAIT socket is left).
// `konnectivity-bundle wait` reads these lines from the pod's log.
var serverEnv = []corev1.EnvVar{{Name: "GRPC_GO_LOG_SEVERITY_LEVEL", Value: "info"}}

func hostPathVolume(name, path string, kind *corev1.HostPathType) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{
		HostPath: &corev1.HostPathVolumeSource{Path: path, Type: kind},
	}}
}

func httpProbe(host, path string, port int32) *corev1.Probe {
	return &corev1.Probe{
		ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Host: host, Path: path, Port: intstr.FromInt32(port), Scheme: corev1.URISchemeHTTP,
		}},
		InitialDelaySeconds: 10,
		PeriodSeconds:       10,
		TimeoutSeconds:      5,
		FailureThreshold:    3,
	}
}

func joinComma(items []string) string {
	out := ""
	for i, it := range items {
		if i > 0 {
			out += ","
		}
		out += it
	}
	return out
}
