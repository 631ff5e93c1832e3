package check

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
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
	if _, msg := overrideEgressFile(o); msg != "" {
		r.errorf("override-egress-flag-missing", o.Ref(), "apiServerArguments."+hostlayout.EgressFileArgument,
			"set apiServerArguments: {egress-selector-config-file: [/etc/kubernetes/config/egress-selector-config.yaml]} (a list with one path as the KAS container sees it)",
			"%s", msg)
	}
}

// overrideEgressFile returns the egress file path the override passes to the
// KAS, or a message saying why there is none.
func overrideEgressFile(o *bundlemodel.Object) (string, string) {
	args := o.Node.Field("apiServerArguments")
	if args == nil || args.Value.YNode().Kind != yaml.MappingNode {
		return "", "apiServerArguments is missing, so the KAS never gets --" + hostlayout.EgressFileArgument + " and does not use the tunnel"
	}
	f := args.Value.Field(hostlayout.EgressFileArgument)
	if f == nil {
		return "", "apiServerArguments has no " + hostlayout.EgressFileArgument + ", so the KAS does not use the tunnel"
	}
	n := f.Value.YNode()
	if n.Kind != yaml.SequenceNode {
		return "", "apiServerArguments values are lists of strings; " + hostlayout.EgressFileArgument + " is not a list"
	}
	if len(n.Content) != 1 || n.Content[0].Kind != yaml.ScalarNode || n.Content[0].Value == "" {
		return "", hostlayout.EgressFileArgument + " must list exactly one non-empty path"
	}
	return n.Content[0].Value, ""
}
