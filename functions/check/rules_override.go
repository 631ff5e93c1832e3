package check

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// checkOverride: the KubeAPIServerConfig override passes the egress file as a
// flag (override-inline-egress, override-egress-flag-missing).
func checkOverride(b *bundlemodel.Bundle, _ Options, r *report) {
	o := b.Override
	if o == nil || o.Malformed != nil {
		return
	}
	if o.Node.Field("egressSelectorConfiguration") != nil {
		r.errorf("override-inline-egress", o.Ref(), "egressSelectorConfiguration",
			"remove it and pass the file through apiServerArguments: {egress-selector-config-file: [/etc/kubernetes/config/egress-selector-config.yaml]}",
			"KubeAPIServerConfig (kubecontrolplane.config.openshift.io/v1) has no egressSelectorConfiguration field: the KAS render drops it and the bootstrap KAS runs without the tunnel")
	}
	if _, err := hostlayout.OverrideEgressFile(o.Node); err != nil {
		r.errorf("override-egress-flag-missing", o.Ref(), "apiServerArguments."+hostlayout.EgressFileArgument,
			"set apiServerArguments: {egress-selector-config-file: [/etc/kubernetes/config/egress-selector-config.yaml]} (a list with one path as the KAS container sees it)",
			"%s", err)
	}
}
