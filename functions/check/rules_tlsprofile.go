package check

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/tlsprofile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// checkTLSProfile holds the agent listener to the cluster's TLS profile the
// bundle was rendered for (the server pod's annotations): a listener that
// accepts an older TLS version than the profile asks is said, whether its
// version cannot set the minimum (v0.28 is fixed at TLS 1.2) or a patch
// lowered it. A bundle that records no profile is not judged.
func checkTLSProfile(w *bundlemodel.Workload, r *report) {
	profile, asked, ok := tlsprofile.Asked(w.Object.Annotations)
	if !ok {
		return
	}
	f, flag := w.Flags, proxyversion.TLSMinVersion.Flag
	_, has := f.Binary.Flags[flag]
	accepts := configv1.TLSProtocolVersion(proxyversion.DefaultTLSMinVersion)
	if has && f.ValueOr(flag) != "" {
		accepts = configv1.TLSProtocolVersion(f.ValueOr(flag))
	}
	if !tlsprofile.Known(accepts) || tlsprofile.Order(asked, accepts) <= 0 {
		return // an unknown value is flag-value-invalid's
	}
	suites := "Go's default suites"
	if v := f.Value(proxyversion.FlagCipherSuites); v != "" {
		suites = "the suites " + v
	}
	how, fix := fmt.Sprintf("runs with --%s=%s", flag, accepts), fmt.Sprintf("set --%s=%s, as the generator renders it", flag, asked)
	if !has {
		how, fix = fmt.Sprintf("has no --%s (its minimum is fixed)", flag), "nothing to set on this version"
		if _, newer := f.Binary.IntroducedIn(flag); newer != nil {
			fix += fmt.Sprintf("; OpenShift %s ship %s, which has --%s", newer.OpenShift, newer.Name, flag)
		}
	}
	r.add(framework.Warning, "tls-profile-not-honoured", w.Object.Ref(), f.FieldOr(flag, w.Field+".args"),
		fmt.Sprintf("the cluster's TLS profile %s asks for %s or newer, but proxy-server %s %s and accepts %s with %s",
			profile, asked, f.Binary.Version.Describe(), how, accepts, suites), fix)
}
