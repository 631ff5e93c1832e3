package v1alpha1

import (
	"k8s.io/apimachinery/pkg/api/resource"

	corev1 "k8s.io/api/core/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/tlsprofile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// Defaults that match the OpenShift installer (docs/config.md states every
// one), which callers of this API name: the image, the ports a firewall or
// a probe opens, and the host paths render writes.
const (
	DefaultImage               = "apiserver-network-proxy"                                // spec.image, a placeholder for kustomize's images:
	DefaultAgentPort           = 8091                                                     // spec.server.agentPort, which agents dial
	DefaultServerHealthPort    = 2041                                                     // spec.server.healthPort
	DefaultSocketName          = "konnectivity-server.socket"                             // spec.paths.socketName
	DefaultEgressConfigName    = "egress-selector-config.yaml"                            // spec.paths.egressConfigName
	DefaultCertDir             = "/opt/openshift/tls/konnectivity"                        // spec.paths.certDir
	DefaultStaticPodManifest   = "/etc/kubernetes/manifests/konnectivity-server-pod.yaml" // spec.paths.staticPodManifest
	DefaultClusterManifestsDir = "/opt/openshift/manifests"                               // spec.paths.clusterManifestsDir
)

// The other defaults, which Default applies and docs/config.md states; the
// namespace and the installer directories are the host contract's
// (internal/bundle/hostlayout), the protections' are their rows'
// (proxyversion.Protections).
const (
	defaultNamespace = hostlayout.AgentNamespace
	// defaultMode is the mode of a spec whose proxy version is not known
	// yet; a known version's own default (proxyversion.Version.DefaultMode) wins.
	defaultMode            = ModeHTTPConnect
	defaultIPFamily        = string(bootstrapip.IPv4)
	defaultServerAdminPort = 8095
	defaultAgentHealthPort = 2041
	defaultAgentAdminPort  = 8094
	defaultServerKeepalive = "30s"
	defaultAgentKeepalive  = "30s"
	// An agent redials a lost server only on its sync tick, and while the
	// server is down each failed dial stretches the tick 1.5x up to the cap.
	// The installer's 5s/30s left agents away for up to 5.5 s after a server
	// restart and up to 33 s after a longer outage (e2e TestScale, README
	// Figures). A tick while connected costs no network traffic, so 1s/3s
	// brings every agent back within about 3.3 s at no cost at rest.
	defaultSyncInterval       = "1s"
	defaultProbeInterval      = "5s"
	defaultSyncIntervalCap    = "3s"
	defaultPriorityClass      = "system-node-critical"
	defaultBootstrapConfigDir = hostlayout.InstallerConfigDir
	defaultKASConfigDir       = hostlayout.InstallerKASConfigDir
	defaultKASConfigOverride  = "/opt/openshift/konnectivity-config-override.yaml"
)

// Environment variables a bootstrap script sets to supply runtime values,
// which a caller's getenv (Default, Inputs.Getenv) answers.
const (
	EnvBootstrapIP = "KONNECTIVITY_BOOTSTRAP_IP" // spec.bootstrapIP when the config sets none
	EnvImage       = "KONNECTIVITY_IMAGE"        // spec.image when the config sets none
	// EnvProxyVersion is spec.proxyVersion when the config sets none:
	// proxyversion's, re-exported because a caller's getenv answers it and
	// internal/proxyversion cannot be imported from outside this module.
	EnvProxyVersion = proxyversion.EnvProxyVersion
)

// Accepted values of spec.mode, proxy-server's --mode: proxyversion's,
// re-exported because a caller sets spec.mode to one and
// internal/proxyversion cannot be imported from outside this module.
const (
	ModeHTTPConnect = proxyversion.ModeHTTPConnect // the kube-apiserver sends HTTP CONNECT over the socket
	ModeGRPC        = proxyversion.ModeGRPC        // the kube-apiserver speaks gRPC over the socket
)

// DefaultWith is Default with the runtime values a caller holds as
// values: in.ProxyVersion, when set, stands where the environment's
// EnvProxyVersion would, below spec.proxyVersion and above the image's
// tag. in.BootstrapIP is not a default: Resolve checks the spec against it.
func (s *Spec) DefaultWith(in Inputs) {
	if s.ProxyVersion == "" && in.ProxyVersion != nil {
		s.ProxyVersion, s.version, s.versionErr = in.ProxyVersion.Name, in.ProxyVersion, nil
	}
	if in.TLSProfile != nil {
		s.cluster = &clusterProfile{profile: in.TLSProfile, from: in.TLSProfileFrom}
	}
	s.Default(in.Getenv)
}

// Default fills every unset field. getenv supplies runtime values and may be nil.
func (s *Spec) Default(getenv func(string) string) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if s.Enabled == nil {
		t := true
		s.Enabled = &t
	}
	setString(&s.IPFamily, defaultIPFamily)
	setString(&s.BootstrapIP, getenv(EnvBootstrapIP))
	setString(&s.Image, getenv(EnvImage))
	setString(&s.Image, DefaultImage)
	s.resolveVersion(getenv)
	setString(&s.Namespace, defaultNamespace)
	if s.version != nil {
		setString(&s.Mode, s.version.DefaultMode)
	}
	setString(&s.Mode, defaultMode)
	s.resolveTLS()
	s.Server.defaults(s.version, s.listener)
	s.Agent.defaults()
	s.Paths.defaults()
}

// resolveVersion settles the target once, for every later reader:
// spec.proxyVersion, else the environment's (proxyversion.EnvName), else
// the version the image's OpenShift tag names, which then fills the field.
// A version settled already (by DefaultWith, or an earlier Default) stands.
func (s *Spec) resolveVersion(getenv func(string) string) {
	if s.version != nil && s.version.Name == s.ProxyVersion {
		return
	}
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
// has their flags, so a v0.28 bundle renders none of them. The TLS floor's
// default is the listener's (the profile's minimum) when there is one.
func (s *ServerSpec) defaults(v *proxyversion.Version, l *tlsprofile.Listener) {
	setPort(&s.AgentPort, DefaultAgentPort)
	setPort(&s.HealthPort, DefaultServerHealthPort)
	setPort(&s.AdminPort, defaultServerAdminPort)
	setString(&s.KeepaliveTime, defaultServerKeepalive)
	if len(s.ProxyStrategies) == 0 {
		s.ProxyStrategies = []string{"default"}
	}
	for _, p := range proxyversion.Protections {
		if v == nil || !v.Has(p.Flag) {
			continue
		}
		if p == proxyversion.TLSMinVersion && l != nil && l.MinVersion != "" && s.TLSMinVersion == "" {
			s.TLSMinVersion, s.floorFromProfile = string(l.MinVersion), true
		}
		s.defaultProtection(p)
	}
	if s.Resources == nil {
		// Measured (e2e TestScale): about 30 MiB with no agent plus about
		// 110 KiB per connected agent, 57 MiB at the peak of 200 agents
		// reconnecting after a restart; idle CPU below measurement.
		s.Resources = requests("10m", "64Mi")
	}
	setString(&s.PriorityClassName, defaultPriorityClass)
}

func (a *AgentSpec) defaults() {
	setPort(&a.HealthPort, defaultAgentHealthPort)
	setPort(&a.AdminPort, defaultAgentAdminPort)
	setString(&a.KeepaliveTime, defaultAgentKeepalive)
	setString(&a.SyncInterval, defaultSyncInterval)
	setString(&a.ProbeInterval, defaultProbeInterval)
	setString(&a.SyncIntervalCap, defaultSyncIntervalCap)
	if a.Resources == nil {
		a.Resources = requests("40m", "50Mi")
	}
	setString(&a.PriorityClassName, defaultPriorityClass)
	if len(a.Tolerations) == 0 {
		a.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
	}
}

func (p *PathsSpec) defaults() {
	setString(&p.BootstrapConfigDir, defaultBootstrapConfigDir)
	setString(&p.KASConfigDir, defaultKASConfigDir)
	setString(&p.SocketName, DefaultSocketName)
	setString(&p.EgressConfigName, DefaultEgressConfigName)
	setString(&p.CertDir, DefaultCertDir)
	setString(&p.StaticPodManifest, DefaultStaticPodManifest)
	setString(&p.ClusterManifestsDir, DefaultClusterManifestsDir)
	setString(&p.KASConfigOverride, defaultKASConfigOverride)
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
