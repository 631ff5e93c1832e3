package v1alpha1

import (
	"fmt"
	"slices"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// versionFix is how a user names the target, for every proxyVersion error.
var versionFix = fmt.Sprintf("set spec.proxyVersion, %s or --proxy-version to the version the image runs: %s (docs/proxy-versions.md)", EnvProxyVersion, proxyversion.Names())

// proxyVersion: the target must be known, since a flag the image's proxy
// lacks crash-loops the server. It returns the target, or nil after
// recording why there is none.
func (v *validator) proxyVersion(s *Spec) *proxyversion.Version {
	const field = "spec.proxyVersion"
	if s.ProxyVersion == "" {
		if s.Image == DefaultImage {
			v.add(field, versionFix, "the proxy version is required: the image is the placeholder %q, which kustomize images: may replace later, so it does not say which proxy runs", s.Image)
		} else if _, err := proxyversion.FromImage(s.Image); err != nil {
			v.add(field, versionFix+", or "+proxyversion.LearnFromImage(s.Image), "the proxy version is required: %v", err)
		}
		return nil
	}
	target, err := proxyversion.Lookup(s.ProxyVersion)
	if err != nil {
		v.add(field, versionFix, "%v", err)
		return nil
	}
	return target
}

// protections: each protection flag is rendered only where the target has
// it, and a value the user set for a target without it is an error rather
// than a silently dropped setting.
func (v *validator) protections(s *ServerSpec, target *proxyversion.Version) {
	if target == nil {
		return
	}
	v.unavailable(target, "spec.server.backendDialTimeout", "backend-dial-timeout", s.BackendDialTimeout != "")
	v.unavailable(target, "spec.server.tlsMinVersion", "tls-min-version", s.TLSMinVersion != "")
	v.unavailable(target, "spec.server.xfrChannelSize", "xfr-channel-size", s.XfrChannelSize != 0)
	if target.Has("backend-dial-timeout") {
		v.backendDialTimeout(s.BackendDialTimeout)
	}
	if target.Has("tls-min-version") {
		v.tlsMinVersion(s.TLSMinVersion)
	}
	if target.Has("xfr-channel-size") && (s.XfrChannelSize < 1 || s.XfrChannelSize > MaxXfrChannelSize) {
		v.add("spec.server.xfrChannelSize", fmt.Sprintf("give 1 to %d (default %d)", MaxXfrChannelSize, DefaultXfrChannelSize),
			"%d packets is outside 1..%d: proxy-server refuses below 1, and every agent and kube-apiserver stream buffers that many", s.XfrChannelSize, MaxXfrChannelSize)
	}
}

// unavailable refuses a field set for a target whose server lacks its flag.
func (v *validator) unavailable(target *proxyversion.Version, field, flag string, set bool) {
	if !set || target.Has(flag) {
		return
	}
	since, newer := target.Server.IntroducedIn(flag)
	fix := "remove " + field
	if newer != nil {
		fix += fmt.Sprintf(", or target %s if the image runs it", newer.Describe())
	}
	v.add(field, fix, "proxy-server %s has no --%s (it arrived in %s); rendering it would crash-loop the server", target.Describe(), flag, since)
}

func (v *validator) tlsMinVersion(raw string) {
	const field = "spec.server.tlsMinVersion"
	if !slices.Contains(proxyversion.TLSVersions, raw) {
		v.oneOf(field, raw, proxyversion.SecureTLSVersions...)
	} else if !slices.Contains(proxyversion.SecureTLSVersions, raw) {
		v.add(field, "use VersionTLS12 or VersionTLS13", "%s allows TLS versions RFC 8996 deprecates; proxy-server warns about it and agents never need it", raw)
	}
}
