// Package v1alpha1 is the KonnectivityBundle API: the config's types, its
// defaults, strict decoding and validation. The generator that turns a
// resolved config into objects is the parent package, functions/bundle.
package v1alpha1

import (
	configv1 "github.com/openshift/api/config/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/tlsprofile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/krmconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// API version and kind of the generator's config.
const (
	// APIVersion is krmconfig.APIVersion, every function's: re-exported
	// because a caller writes it in a config and the internal/ packages
	// cannot be imported from outside this module.
	APIVersion = krmconfig.APIVersion
	Kind       = "KonnectivityBundle" // the config's kind
)

// KonnectivityBundle is the generator's function config.
type KonnectivityBundle struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   ObjectMeta `json:"metadata"`
	Spec       Spec       `json:"spec"`
}

// ObjectMeta is the part of metadata a function config may carry:
// krmconfig's, re-exported because KonnectivityBundle.Metadata is one and
// internal/krm/krmconfig cannot be imported from outside this module.
type ObjectMeta = krmconfig.ObjectMeta

// Spec is everything the bundle can be told. Zero values mean "use the default".
type Spec struct {
	// Enabled false produces nothing at all (bootstrap-in-place).
	Enabled *bool `json:"enabled,omitempty"`
	// IPFamily is ipv4, ipv6 or dualstack. Dual-stack agents dial the primary
	// family's address, so bootstrapIP may then be of either family.
	IPFamily string `json:"ipFamily,omitempty"`
	// BootstrapIP is the address agents dial and the server certificate's SAN.
	// Empty means: take KONNECTIVITY_BOOTSTRAP_IP from the environment.
	BootstrapIP string `json:"bootstrapIP,omitempty"`
	// Image is the apiserver-network-proxy image for server and agents.
	// Empty means KONNECTIVITY_IMAGE from the environment, else a placeholder
	// that kustomize's images: field replaces.
	Image string `json:"image,omitempty"`
	// ProxyVersion is the apiserver-network-proxy version the image runs:
	// v0.28 (OpenShift 4.14 to 4.22) or v0.36 (4.23 and later). It decides
	// which flags are rendered (docs/proxy-versions.md). Empty means
	// KONNECTIVITY_PROXY_VERSION from the environment, else the version the
	// image's OpenShift tag (:4.N) names; an image by digest needs it set.
	ProxyVersion string `json:"proxyVersion,omitempty"`
	// Namespace holds the agents, their Secret and nothing else.
	Namespace string `json:"namespace,omitempty"`
	// Mode is the proxy-server --mode; the egress proxyProtocol follows from it.
	Mode string `json:"mode,omitempty"`
	// TLSSecurityProfile is the cluster's TLS security profile, written
	// as OpenShift's APIServer spec.tlsSecurityProfile is (Old,
	// Intermediate, Modern or Custom), which the server's agent listener
	// follows as far as the proxy version can (docs/config.md). Absent
	// means Intermediate, the cluster's own default.
	TLSSecurityProfile *configv1.TLSSecurityProfile `json:"tlsSecurityProfile,omitempty"`
	Server             ServerSpec                   `json:"server,omitempty"`
	Agent              AgentSpec                    `json:"agent,omitempty"`
	Paths              PathsSpec                    `json:"paths,omitempty"`

	// version is ProxyVersion resolved by Default (Version); versionErr
	// is why it is nil, for validation to word.
	version    *proxyversion.Version
	versionErr error
	// listener is the agent listener following the profile on version,
	// resolved by Default (Listener); tlsErr is why it is nil.
	listener *tlsprofile.Listener
	tlsErr   error
	// cluster is the profile of the install's APIServer manifest, handed
	// in by the caller (Inputs.TLSProfile); nil when there is none.
	cluster *clusterProfile
}

// ServerSpec tunes the proxy-server static pod on the bootstrap node. A
// field tagged protection:"FLAG" is the value of that protection flag
// (internal/proxyversion's Protections), which its row defaults, validates
// and renders only for a target whose server has the flag.
type ServerSpec struct {
	AgentPort  int32 `json:"agentPort,omitempty"`
	HealthPort int32 `json:"healthPort,omitempty"`
	AdminPort  int32 `json:"adminPort,omitempty"`
	// AgentBindAddress limits the agent listener; empty listens on all addresses.
	AgentBindAddress string `json:"agentBindAddress,omitempty"`
	// KeepaliveTime is the server's --keepalive-time towards agents.
	KeepaliveTime string `json:"keepaliveTime,omitempty"`
	// ProxyStrategies are passed as --proxy-strategies, in order.
	ProxyStrategies []string `json:"proxyStrategies,omitempty"`
	// BackendDialTimeout is --backend-dial-timeout: how long the server
	// waits for an agent to answer a dial before failing it (upstream's 0
	// waits for ever). Proxy v0.36 only.
	BackendDialTimeout string `json:"backendDialTimeout,omitempty" protection:"backend-dial-timeout"`
	// TLSMinVersion is --tls-min-version of the agent listener. Proxy
	// v0.36 only; v0.28 is fixed at TLS 1.2. Unset, it is the TLS
	// profile's minTLSVersion; set, it replaces that minimum and the
	// profile may not be set too.
	TLSMinVersion string `json:"tlsMinVersion,omitempty" protection:"tls-min-version"`
	// XfrChannelSize is --xfr-channel-size: packets buffered per stream.
	// Proxy v0.36 only; v0.28 is fixed at 10.
	XfrChannelSize    int32                        `json:"xfrChannelSize,omitempty" protection:"xfr-channel-size"`
	Resources         *corev1.ResourceRequirements `json:"resources,omitempty"`
	PriorityClassName string                       `json:"priorityClassName,omitempty"`

	// floorFromProfile: Default set TLSMinVersion from the TLS profile,
	// which may ask for less than a tlsMinVersion the user writes may.
	floorFromProfile bool
	// floorWritten: the config itself sets TLSMinVersion.
	floorWritten bool
}

// AgentSpec tunes the proxy-agent DaemonSet on the cluster nodes.
type AgentSpec struct {
	HealthPort      int32  `json:"healthPort,omitempty"`
	AdminPort       int32  `json:"adminPort,omitempty"`
	KeepaliveTime   string `json:"keepaliveTime,omitempty"`
	SyncInterval    string `json:"syncInterval,omitempty"`
	ProbeInterval   string `json:"probeInterval,omitempty"`
	SyncIntervalCap string `json:"syncIntervalCap,omitempty"`
	// Identifiers is --agent-identifiers in URL-query form (ipv4=..&default-route=true).
	Identifiers       string                       `json:"identifiers,omitempty"`
	HostNetwork       bool                         `json:"hostNetwork,omitempty"`
	Resources         *corev1.ResourceRequirements `json:"resources,omitempty"`
	PriorityClassName string                       `json:"priorityClassName,omitempty"`
	// Tolerations replace the default tolerate-everything when set.
	Tolerations  []corev1.Toleration `json:"tolerations,omitempty"`
	NodeSelector map[string]string   `json:"nodeSelector,omitempty"`
}

// PathsSpec names every file and directory on the bootstrap host, and where
// the kube-apiserver container sees the bootstrap-configs directory.
type PathsSpec struct {
	// BootstrapConfigDir on the host holds the socket and the egress file.
	BootstrapConfigDir string `json:"bootstrapConfigDir,omitempty"`
	// KASConfigDir is where the KAS container mounts BootstrapConfigDir.
	KASConfigDir string `json:"kasConfigDir,omitempty"`
	// SocketName is the UDS file name inside BootstrapConfigDir.
	SocketName string `json:"socketName,omitempty"`
	// EgressConfigName is the egress file name inside BootstrapConfigDir.
	EgressConfigName string `json:"egressConfigName,omitempty"`
	// CertDir on the host holds ca.crt, server.crt/key and agent.crt/key.
	CertDir string `json:"certDir,omitempty"`
	// StaticPodManifest is where the kubelet picks up the server pod.
	StaticPodManifest string `json:"staticPodManifest,omitempty"`
	// ClusterManifestsDir is applied to the cluster by cluster-bootstrap.
	ClusterManifestsDir string `json:"clusterManifestsDir,omitempty"`
	// KASConfigOverride is passed to the KAS render as --config-override-files.
	KASConfigOverride string `json:"kasConfigOverride,omitempty"`
}
