package v1alpha1

// Internal annotations. They tell render where an object goes on the
// bootstrap host; render strips them, so they never reach the cluster.
const (
	AnnotationPlacement      = Group + "/placement"
	AnnotationHostPath       = Group + "/host-path"
	AnnotationKASConfigMount = Group + "/kas-config-mount"
)

// Placements: where on the bootstrap host an object ends up.
const (
	PlacementStaticPod         = "static-pod"
	PlacementClusterManifest   = "cluster-manifest"
	PlacementKASEgressConfig   = "kas-egress-config"
	PlacementKASConfigOverride = "kas-config-override"
)

// Labels every emitted object carries; teardown and check rely on them.
const (
	LabelBootstrapOnly = "openshift.io/bootstrap-only"
	LabelApp           = "app"
	AppServer          = "konnectivity-server"
	AppAgent           = "konnectivity-agent"
)

// Names of the emitted objects and what they mount.
const (
	ServerPodName       = "konnectivity-server"
	ServerPodNamespace  = "kube-system"
	AgentName           = "konnectivity-agent"
	AgentSecretName     = "konnectivity-agent-certs"
	EgressObjectName    = "konnectivity-egress-selector"
	OverrideObjectName  = "konnectivity-config-override"
	NamespaceFileName   = "konnectivity-00-namespace.yaml"
	DaemonSetFileName   = "konnectivity-agent-daemonset.yaml"
	AgentSecretFileName = "konnectivity-agent-certs-secret.yaml"
	EgressAPIVersion    = "apiserver.k8s.io/v1beta1"
	EgressKind          = "EgressSelectorConfiguration"
	OverrideAPIVersion  = "kubecontrolplane.config.openshift.io/v1"
	OverrideKind        = "KubeAPIServerConfig"
	EgressFileArgument  = "egress-selector-config-file"
)

// Host and container paths derived from the config. Each is computed in one
// place so the server, the egress file and the override cannot disagree.

// HostSocketPath is the UDS as the host (and the server container) sees it.
func (p PathsSpec) HostSocketPath() string { return p.BootstrapConfigDir + "/" + p.SocketName }

// KASSocketPath is the UDS as the kube-apiserver container sees it.
func (p PathsSpec) KASSocketPath() string { return p.KASConfigDir + "/" + p.SocketName }

// HostEgressPath is where render writes the egress file.
func (p PathsSpec) HostEgressPath() string { return p.BootstrapConfigDir + "/" + p.EgressConfigName }

// KASEgressPath is the egress file as the kube-apiserver container sees it.
func (p PathsSpec) KASEgressPath() string { return p.KASConfigDir + "/" + p.EgressConfigName }

// KASConfigMount is the AnnotationKASConfigMount value: HOSTDIR:CONTAINERDIR.
func (p PathsSpec) KASConfigMount() string { return p.BootstrapConfigDir + ":" + p.KASConfigDir }

// ClusterManifest is the host path of a cluster manifest file.
func (p PathsSpec) ClusterManifest(name string) string { return p.ClusterManifestsDir + "/" + name }
