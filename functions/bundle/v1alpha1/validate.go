package v1alpha1

import (
	"fmt"
	"net/netip"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/imageref"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/krmconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

type validator struct {
	errs FieldErrors
	ip   netip.Addr // the bootstrap IP, once valid
}

func (v *validator) add(field, fix, format string, args ...any) {
	v.errs = append(v.errs, krmconfig.FieldError{Field: field, Message: fmt.Sprintf(format, args...), Fix: fix})
}

// validate checks a defaulted spec and returns FieldErrors, or nil. ip is
// the bootstrap IP when the caller resolved it (it is then not parsed
// again, and replaces the spec's own text), else the zero Addr. A valid
// bootstrapIP is left in canonical form.
func (s *Spec) validate(ip netip.Addr) error {
	v := &validator{}
	if !*s.Enabled {
		return nil // nothing is produced, so nothing else matters
	}
	v.oneOf("spec.ipFamily", s.IPFamily, string(bootstrapip.IPv4), string(bootstrapip.IPv6), string(bootstrapip.DualStack))
	v.bootstrapIP(s.IPFamily, s.BootstrapIP, ip)
	if v.ip.IsValid() {
		s.BootstrapIP = v.ip.String()
	}
	v.image(s.Image)
	target := v.proxyVersion(s)
	v.namespace(s.Namespace)
	v.oneOf("spec.mode", s.Mode, ModeHTTPConnect, ModeGRPC)
	v.server(&s.Server)
	v.protections(&s.Server, target)
	v.tlsProfile(s)
	v.bindFamily(s.IPFamily, s.Server.AgentBindAddress)
	v.bindAddress(s.IPFamily, s.Server.AgentBindAddress)
	v.agent(&s.Agent)
	v.strategies(s)
	v.paths(&s.Paths)
	if len(v.errs) == 0 {
		return nil
	}
	return v.errs
}

func (v *validator) oneOf(field, got string, allowed ...string) {
	for _, a := range allowed {
		if got == a {
			return
		}
	}
	v.add(field, "use one of: "+strings.Join(allowed, ", "), "unknown value %q", got)
}

// bootstrapIP applies bootstrapip.Validate (or, to an address the caller
// resolved and validated, only the family rule, which needs spec.ipFamily)
// and words its verdict for spec.bootstrapIP.
func (v *validator) bootstrapIP(family, raw string, resolved netip.Addr) {
	const field = "spec.bootstrapIP"
	if raw == "" && !resolved.IsValid() {
		v.add(field, "set spec.bootstrapIP, the environment variable "+EnvBootstrapIP+", or --bootstrap-ip", "the bootstrap node's IP is required: agents dial it and the server certificate names it")
		return
	}
	ip, err := resolved, error(nil)
	if ip.IsValid() {
		err = bootstrapip.CheckFamily(ip, bootstrapip.Family(family)) // the caller validated the rest
	} else {
		ip, err = bootstrapip.Validate(raw, bootstrapip.Family(family))
	}
	bad := bootstrapip.AsError(err)
	if bad == nil {
		v.ip = ip // validate writes it into the spec, the one text the generator writes out
		return
	}
	if resolved.IsValid() {
		raw = resolved.String() // the messages name the address the caller resolved
	}
	switch bad.Problem {
	case bootstrapip.Unreachable:
		v.add(field, "use the bootstrap node's routable address (konnectivity-bundle detect-ip prints it)", "%s is not reachable from cluster nodes: it is %s", raw, bad.Kind)
	case bootstrapip.WrongFamily:
		v.add(field, fmt.Sprintf("use an %s address, or set spec.ipFamily: %s", bad.Want.Name(), bad.Got),
			"%s is not an %s address but spec.ipFamily is %s", raw, bad.Want.Name(), bad.Want)
	default:
		v.add(field, "give a plain IPv4 or IPv6 address, without port or prefix length", "%q is not an IP address", raw)
	}
}

func (v *validator) image(ref string) {
	// The one rule of every reference (--image too), so the two never disagree.
	if err := imageref.Check(ref); err != nil {
		v.add("spec.image", imageref.Fix, "%v", err)
	}
}

func (v *validator) port(field string, p int32) {
	if !proxyversion.PortInRange(int64(p)) {
		v.add(field, "pick a port between 1024 and 49151", "port %d is outside 1024..49151, which proxy-server and proxy-agent reject", p)
	}
}

func (v *validator) distinct(process string, ports map[string]int32) {
	seen := map[int32]string{}
	fields := make([]string, 0, len(ports))
	for f := range ports {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		if other, dup := seen[ports[f]]; dup {
			v.add(f, "give every "+process+" port its own number", "port %d is also used by %s in the same %s", ports[f], other, process)
		}
		seen[ports[f]] = f
	}
}

func (v *validator) duration(field, raw string, atLeast time.Duration) time.Duration {
	d, err := time.ParseDuration(raw)
	if err != nil {
		v.add(field, "write a Go duration such as 30s or 1m", "%q is not a duration", raw)
		return 0
	}
	if d < atLeast {
		v.add(field, fmt.Sprintf("use %s or more", atLeast), "%s is below the minimum %s", raw, atLeast)
	}
	return d
}

func (v *validator) server(s *ServerSpec) {
	v.port("spec.server.agentPort", s.AgentPort)
	v.port("spec.server.healthPort", s.HealthPort)
	v.port("spec.server.adminPort", s.AdminPort)
	v.distinct("proxy-server", map[string]int32{"spec.server.agentPort": s.AgentPort, "spec.server.healthPort": s.HealthPort, "spec.server.adminPort": s.AdminPort})
	if _, ok := bootstrapip.ParseAddr(s.AgentBindAddress); s.AgentBindAddress != "" && !ok {
		v.add("spec.server.agentBindAddress", "give an IP address, or leave it empty to listen on all addresses", "%q is not an IP address", s.AgentBindAddress)
	}
	v.duration("spec.server.keepaliveTime", s.KeepaliveTime, time.Second)
	for i, st := range s.ProxyStrategies {
		v.oneOf(fmt.Sprintf("spec.server.proxyStrategies[%d]", i), st, proxyversion.ProxyStrategies...)
	}
	v.podSettings("spec.server", s.PriorityClassName, s.Resources)
}

// bindFamily keeps the agent listener on the family agents dial.
func (v *validator) bindFamily(family, bind string) {
	ip, ok := bootstrapip.ParseAddr(bind)
	if !ok || ip.IsUnspecified() {
		return
	}
	if wrongFamily(family, ip) {
		v.add("spec.server.agentBindAddress", "bind to an address of spec.ipFamily, or leave it empty", "%s is not of spec.ipFamily %s: agents could not reach the server", bind, family)
	}
}

var (
	tolerationOperators = []string{"", "Exists", "Equal"}
	tolerationEffects   = []string{"", "NoSchedule", "PreferNoSchedule", "NoExecute"}
)

// tolerations catches typos the API server would only reject when
// cluster-bootstrap applies the DaemonSet, long after the build.
func (v *validator) tolerations(ts []corev1.Toleration) {
	for i, t := range ts {
		field := fmt.Sprintf("spec.agent.tolerations[%d]", i)
		if !slices.Contains(tolerationOperators, string(t.Operator)) {
			v.add(field+".operator", "use Exists or Equal", "unknown operator %q", t.Operator)
		}
		if !slices.Contains(tolerationEffects, string(t.Effect)) {
			v.add(field+".effect", "use NoSchedule, PreferNoSchedule or NoExecute, or leave it empty for all", "unknown effect %q", t.Effect)
		}
		if t.Operator == corev1.TolerationOpExists && t.Value != "" {
			v.add(field+".value", "drop the value, or use operator: Equal", "operator Exists takes no value")
		}
	}
}

func (v *validator) agent(a *AgentSpec) {
	v.tolerations(a.Tolerations)
	v.port("spec.agent.healthPort", a.HealthPort)
	v.port("spec.agent.adminPort", a.AdminPort)
	v.distinct("proxy-agent", map[string]int32{"spec.agent.healthPort": a.HealthPort, "spec.agent.adminPort": a.AdminPort})
	v.duration("spec.agent.keepaliveTime", a.KeepaliveTime, proxyversion.MinAgentKeepalive)
	sync := v.duration("spec.agent.syncInterval", a.SyncInterval, time.Second)
	v.duration("spec.agent.probeInterval", a.ProbeInterval, time.Second)
	if limit := v.duration("spec.agent.syncIntervalCap", a.SyncIntervalCap, time.Second); limit < sync {
		v.add("spec.agent.syncIntervalCap", "make the cap at least spec.agent.syncInterval", "%s is below spec.agent.syncInterval %s", a.SyncIntervalCap, a.SyncInterval)
	}
	v.identifiers(a.Identifiers)
	v.podSettings("spec.agent", a.PriorityClassName, a.Resources)
	v.nodeSelector(a.NodeSelector)
}

func (v *validator) identifiers(raw string) {
	const field = "spec.agent.identifiers"
	if raw == "" {
		return
	}
	_, unknown, err := proxyversion.ParseIdentifiers(raw)
	if err != nil || strings.Contains(raw, ",") {
		v.add(field, "join identifiers with & in URL-query form, e.g. ipv4=10.0.0.5&default-route=true", "%q is not in URL-query form", raw)
		return
	}
	for _, k := range unknown {
		v.add(field, "use only the keys "+strings.Join(proxyversion.IdentifierKeys, ", "), "unknown identifier key %q", k)
	}
}

func (v *validator) paths(p *PathsSpec) {
	usable := true
	for _, f := range []struct{ field, value string }{
		{"spec.paths.bootstrapConfigDir", p.BootstrapConfigDir},
		{"spec.paths.kasConfigDir", p.KASConfigDir},
		{"spec.paths.certDir", p.CertDir},
		{"spec.paths.staticPodManifest", p.StaticPodManifest},
		{"spec.paths.clusterManifestsDir", p.ClusterManifestsDir},
		{"spec.paths.kasConfigOverride", p.KASConfigOverride},
	} {
		if !v.pathText(f.field, f.value) {
			usable = false
			continue
		}
		if !path.IsAbs(f.value) || path.Clean(f.value) != f.value || f.value == "/" {
			v.add(f.field, "give a clean absolute path below /", "%q is not a clean absolute path", f.value)
			usable = false
		}
	}
	for _, f := range []struct{ field, value string }{
		{"spec.paths.socketName", p.SocketName},
		{"spec.paths.egressConfigName", p.EgressConfigName},
	} {
		if !v.pathText(f.field, f.value) {
			usable = false
			continue
		}
		if strings.Contains(f.value, "/") || f.value == "." || f.value == ".." {
			v.add(f.field, "give a file name only; the directory is spec.paths.bootstrapConfigDir", "%q is not a plain file name", f.value)
		}
	}
	v.kasMountDirs(p)
	if !usable {
		return // where a path lands means nothing until it is a clean path
	}
	v.socketLength(p)
	v.hostPaths(p)
}

// kasMountDirs: the kas-config-mount annotation is HOSTDIR:CONTAINERDIR, so
// a ':' in either directory makes it ambiguous for render and check.
func (v *validator) kasMountDirs(p *PathsSpec) {
	for _, f := range []struct{ field, value string }{
		{"spec.paths.bootstrapConfigDir", p.BootstrapConfigDir},
		{"spec.paths.kasConfigDir", p.KASConfigDir},
	} {
		if strings.Contains(f.value, ":") {
			v.add(f.field, "choose a directory without ':'", "%q contains ':', the separator of the %s annotation", f.value, hostlayout.AnnotationKASConfigMount)
		}
	}
}

// maxSocketPath is the longest Unix socket path Linux accepts (sun_path is
// 108 bytes with the terminating NUL); proxy-server cannot listen on, and
// the KAS cannot dial, a longer one.
const maxSocketPath = 107

func (v *validator) socketLength(p *PathsSpec) {
	for _, sock := range []string{p.HostSocketPath(), p.KASSocketPath()} {
		if len(sock) > maxSocketPath {
			v.add("spec.paths.socketName", "shorten spec.paths.socketName, spec.paths.bootstrapConfigDir or spec.paths.kasConfigDir",
				"socket path %q is %d bytes, longer than the %d a Unix socket path can have", sock, len(sock), maxSocketPath)
		}
	}
}

// wrongFamily says whether ip is of the other family than a cluster of
// family (spec.ipFamily) listens on; dual-stack takes either.
func wrongFamily(family string, ip netip.Addr) bool {
	switch bootstrapip.Family(family) {
	case bootstrapip.IPv4:
		return !ip.Is4()
	case bootstrapip.IPv6:
		return ip.Is4()
	}
	return false
}
