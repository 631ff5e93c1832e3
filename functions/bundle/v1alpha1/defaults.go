package v1alpha1

import (
	"k8s.io/apimachinery/pkg/api/resource"

	corev1 "k8s.io/api/core/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// Defaults that match the OpenShift installer (docs/config.md). Those set
// from internal/bundle/hostlayout (namespace and installer directories) are
// hostlayout's, named here because they are this API's defaults and
// internal/ packages cannot be imported from outside this module.
const (
	DefaultNamespace = hostlayout.AgentNamespace
	DefaultImage     = "apiserver-network-proxy"
	// DefaultMode is the mode of a spec whose proxy version is not known
	// yet; a known version's own default (proxyversion.Version.DefaultMode) wins.
	DefaultMode             = ModeHTTPConnect
	DefaultIPFamily         = string(bootstrapip.IPv4)
	DefaultAgentPort        = 8091
	DefaultServerHealthPort = 2041
	DefaultServerAdminPort  = 8095
	DefaultAgentHealthPort  = 2041
	DefaultAgentAdminPort   = 8094
	DefaultServerKeepalive  = "30s"
	DefaultAgentKeepalive   = "30s"
	// An agent redials a lost server only on its sync tick, and while the
	// server is down each failed dial stretches the tick 1.5x up to the cap.
	// The installer's 5s/30s left agents away for up to 5.5 s after a server
	// restart and up to 33 s after a longer outage (e2e TestScale, README
	// Figures). A tick while connected costs no network traffic, so 1s/3s
	// brings every agent back within about 3.3 s at no cost at rest.
	DefaultSyncInterval    = "1s"
	DefaultProbeInterval   = "5s"
	DefaultSyncIntervalCap = "3s"
	DefaultPriorityClass   = "system-node-critical"
	// The protections' defaults and bounds (proxyversion.Protections),
	// which docs/config.md explains.
	DefaultBackendDialTimeout = proxyversion.DefaultBackendDialTimeout
	DefaultTLSMinVersion      = proxyversion.DefaultTLSMinVersion
	DefaultXfrChannelSize     = proxyversion.DefaultXfrChannelSize
	MaxXfrChannelSize         = proxyversion.MaxXfrChannelSize

	DefaultBootstrapConfigDir  = hostlayout.InstallerConfigDir
	DefaultKASConfigDir        = hostlayout.InstallerKASConfigDir
	DefaultSocketName          = "konnectivity-server.socket"
	DefaultEgressConfigName    = "egress-selector-config.yaml"
	DefaultCertDir             = "/opt/openshift/tls/konnectivity"
	DefaultStaticPodManifest   = "/etc/kubernetes/manifests/konnectivity-server-pod.yaml"
	DefaultClusterManifestsDir = "/opt/openshift/manifests"
	DefaultKASConfigOverride   = "/opt/openshift/konnectivity-config-override.yaml"
)

// Environment variables a bootstrap script sets to supply runtime values.
// EnvProxyVersion is proxyversion's, named here as part of this API (see above).
const (
	EnvBootstrapIP  = "KONNECTIVITY_BOOTSTRAP_IP"
	EnvImage        = "KONNECTIVITY_IMAGE"
	EnvProxyVersion = proxyversion.EnvProxyVersion
)

// Accepted values of spec.mode: proxyversion's, named here as part of this API
// (internal/proxyversion cannot be imported from outside this module).
const (
	ModeHTTPConnect = proxyversion.ModeHTTPConnect // spec.mode is proxy-server's --mode
	ModeGRPC        = proxyversion.ModeGRPC
)

// Default fills every unset field. getenv supplies runtime values and may be nil.
func (s *Spec) Default(getenv func(string) string) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if s.Enabled == nil {
		t := true
		s.Enabled = &t
	}
	setString(&s.IPFamily, DefaultIPFamily)
	setString(&s.BootstrapIP, getenv(EnvBootstrapIP))
	setString(&s.Image, getenv(EnvImage))
	setString(&s.Image, DefaultImage)
	s.resolveVersion(getenv)
	setString(&s.Namespace, DefaultNamespace)
	if s.version != nil {
		setString(&s.Mode, s.version.DefaultMode)
	}
	setString(&s.Mode, DefaultMode)
	s.Server.defaults(s.version)
	s.Agent.defaults()
	s.Paths.defaults()
}

// resolveVersion settles the target once, for every later reader:
// spec.proxyVersion, else the environment's (proxyversion.EnvName), else
// the version the image's OpenShift tag names, which then fills the field.
func (s *Spec) resolveVersion(getenv func(string) string) {
	setString(&s.ProxyVersion, proxyversion.EnvName(getenv))
	if s.ProxyVersion != "" {
		s.version, s.versionErr = proxyversion.Lookup(s.ProxyVersion)
		return
	}
	s.version, s.versionErr = proxyversion.FromImage(s.Image)
	if s.version != nil {
		s.ProxyVersion = s.version.Name
	}
}

// Version is the proxy version the spec targets, resolved by Default; nil
// before Default, or when ProxyVersion names no supported one.
func (s *Spec) Version() *proxyversion.Version { return s.version }

// defaults fill the server's fields; the protections only where version v
// has their flags, so a v0.28 bundle renders none of them.
func (s *ServerSpec) defaults(v *proxyversion.Version) {
	setPort(&s.AgentPort, DefaultAgentPort)
	setPort(&s.HealthPort, DefaultServerHealthPort)
	setPort(&s.AdminPort, DefaultServerAdminPort)
	setString(&s.KeepaliveTime, DefaultServerKeepalive)
	if len(s.ProxyStrategies) == 0 {
		s.ProxyStrategies = []string{"default"}
	}
	for _, p := range proxyversion.Protections {
		if v != nil && v.Has(p.Flag) {
			s.defaultProtection(p)
		}
	}
	if s.Resources == nil {
		// Measured (e2e TestScale): about 30 MiB with no agent plus about
		// 110 KiB per connected agent, 57 MiB at the peak of 200 agents
		// reconnecting after a restart; idle CPU below measurement.
		s.Resources = requests("10m", "64Mi")
	}
	setString(&s.PriorityClassName, DefaultPriorityClass)
}

func (a *AgentSpec) defaults() {
	setPort(&a.HealthPort, DefaultAgentHealthPort)
	setPort(&a.AdminPort, DefaultAgentAdminPort)
	setString(&a.KeepaliveTime, DefaultAgentKeepalive)
	setString(&a.SyncInterval, DefaultSyncInterval)
	setString(&a.ProbeInterval, DefaultProbeInterval)
	setString(&a.SyncIntervalCap, DefaultSyncIntervalCap)
	if a.Resources == nil {
		a.Resources = requests("40m", "50Mi")
	}
	setString(&a.PriorityClassName, DefaultPriorityClass)
	if len(a.Tolerations) == 0 {
		a.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
	}
}

func (p *PathsSpec) defaults() {
	setString(&p.BootstrapConfigDir, DefaultBootstrapConfigDir)
	setString(&p.KASConfigDir, DefaultKASConfigDir)
	setString(&p.SocketName, DefaultSocketName)
	setString(&p.EgressConfigName, DefaultEgressConfigName)
	setString(&p.CertDir, DefaultCertDir)
	setString(&p.StaticPodManifest, DefaultStaticPodManifest)
	setString(&p.ClusterManifestsDir, DefaultClusterManifestsDir)
	setString(&p.KASConfigOverride, DefaultKASConfigOverride)
}

func requests(cpu, memory string) *corev1.ResourceRequirements {
	return &corev1.ResourceRequirements{Requests: corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse(cpu),
		corev1.ResourceMemory: resource.MustParse(memory),
	}}
}

func setString(p *string, v string) {
	if *p == "" {
		*p = v
	}
}

func setPort(p *int32, v int32) {
	if *p == 0 {
		*p = v
	}
}
