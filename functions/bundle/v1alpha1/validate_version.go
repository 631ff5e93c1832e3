package v1alpha1

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// versionFix is how a user names the target, for every proxyVersion error.
var versionFix = fmt.Sprintf("set spec.proxyVersion, %s or --proxy-version to the version the image runs: %s (docs/proxy-versions.md)", EnvProxyVersion, proxyversion.Names())

// proxyVersion: the target must be known, since a flag the image's proxy
// lacks crash-loops the server. It returns the target, or nil after
// recording why there is none.
func (v *validator) proxyVersion(s *Spec) *proxyversion.Version {
	const field = "spec.proxyVersion"
	if err := proxyversion.Unsupported(s.Image); err != nil { // whatever version is named beside it
		v.add("spec.image", "use an image of OpenShift "+proxyversion.OldestRelease().String()+" or later", "%v", err)
		return nil
	}
	switch {
	case s.version != nil:
	case s.ProxyVersion != "":
		v.add(field, versionFix, "%v", s.versionErr)
	case s.Image == DefaultImage:
		v.add(field, versionFix, "the proxy version is required: the image is the placeholder %q, which kustomize images: may replace later, so it does not say which proxy runs", s.Image)
	default: // the image's tag named none
		v.add(field, versionFix+", or "+proxyversion.LearnFromImage(s.Image), "the proxy version is required: %v", s.versionErr)
	}
	return s.version
}

// protections: each protection flag is rendered only where the target has
// it, and a value the user set for a target without it is an error rather
// than a silently dropped setting.
func (v *validator) protections(s *ServerSpec, target *proxyversion.Version) {
	if target == nil {
		return
	}
	for _, p := range proxyversion.Protections {
		if !target.Has(p.Flag) {
			v.unavailable(target, p, !s.protectionField(p).IsZero())
		} else if p == proxyversion.TLSMinVersion && s.floorFromProfile {
			continue // the profile's own minimum, which tlsprofile checked; check warns below TLS 1.2
		} else if fix, msg := p.Validate(s.Protection(p)); msg != "" {
			v.add(protectionPath(p), fix, "%s", msg)
		}
	}
}

// unavailable refuses a field set for a target whose server lacks its flag.
func (v *validator) unavailable(target *proxyversion.Version, p *proxyversion.Protection, set bool) {
	if !set {
		return
	}
	since, newer := target.Server.IntroducedIn(p.Flag)
	fix := "remove " + protectionPath(p)
	if newer != nil {
		fix += fmt.Sprintf(", or target %s if the image runs it", newer.Describe())
	}
	v.add(protectionPath(p), fix, "proxy-server %s has no --%s (it arrived in %s); rendering it would crash-loop the server", target.Describe(), p.Flag, since)
}
