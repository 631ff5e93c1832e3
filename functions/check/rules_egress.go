package check

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
)

// checkEgress: the egress file loads and validates in the KAS (egress-api-version,
// egress-invalid), and tunnels the cluster selection (egress-cluster-missing,
// egress-cluster-direct).
func checkEgress(b *bundlemodel.Bundle, _ Options, r *report) {
	o := b.Egress
	if o == nil || o.Malformed != nil {
		return
	}
	if o.APIVersion != egressconfig.Versions[0] && o.APIVersion != egressconfig.Versions[1] {
		r.errorf("egress-api-version", o.Ref(), "apiVersion", "use apiVersion: apiserver.k8s.io/v1beta1",
			"EgressSelectorConfiguration exists only as %s; the KAS cannot load %q", strings.Join(egressconfig.Versions, " and "), o.APIVersion)
		return
	}
	if len(UnknownFields(o)) > 0 {
		return // unknown-field names each one with its fix
	}
	cfg, err := decodeEgress(o)
	if err != nil {
		r.errorf("egress-invalid", o.Ref(), "", "fix the file so kube-apiserver can load it",
			"kube-apiserver cannot load this EgressSelectorConfiguration: %v", err)
		return
	}
	validateEgress(o, cfg, r)
	checkClusterSelection(o, cfg, r)
}

// decodeEgress loads the object as the host file render writes (without
// metadata) and as the KAS loads it (egressconfig agrees with its loader).
func decodeEgress(o *bundlemodel.Object) (*egressconfig.Config, error) {
	n := o.Node.Copy()
	if _, err := n.Pipe(yaml.Clear("metadata")); err != nil {
		return nil, fmt.Errorf("strip metadata: %w", err)
	}
	data, err := n.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return egressconfig.Decode(data)
}

// validateEgress runs the KAS's validation rules per selection, so each error names its
// selection's index (the validator's own paths do not).
func validateEgress(o *bundlemodel.Object, cfg *egressconfig.Config, r *report) {
	const fix = "selections are cluster, controlplane, etcd; protocols Direct, HTTPConnect (exactly one of tcp or uds), GRPC (uds)"
	for i, sel := range cfg.EgressSelections {
		one := &egressconfig.Config{EgressSelections: []egressconfig.Selection{sel}}
		for _, e := range egressconfig.Validate(one) {
			r.errorf("egress-invalid", o.Ref(), selectionField(e, i), fix, "kube-apiserver rejects selection %q: %s", sel.Name, e.ErrorBody())
		}
	}
	for _, e := range egressconfig.Validate(cfg) {
		if e.Type == field.ErrorTypeDuplicate {
			r.errorf("egress-invalid", o.Ref(), "egressSelections", "list each selection once",
				"kube-apiserver rejects the file: %s", e.ErrorBody())
		}
	}
}

func selectionField(e *field.Error, i int) string {
	rest := strings.TrimPrefix(e.Field, "service.connection")
	if e.Type == field.ErrorTypeNotSupported && rest == "" {
		return fmt.Sprintf("egressSelections[%d].name", i)
	}
	return fmt.Sprintf("egressSelections[%d].connection%s", i, rest)
}

func checkClusterSelection(o *bundlemodel.Object, cfg *egressconfig.Config, r *report) {
	sel, i := cfg.Cluster()
	if sel == nil {
		r.errorf("egress-cluster-missing", o.Ref(), "egressSelections",
			"add a selection named cluster with proxyProtocol HTTPConnect and transport.uds.udsName the server's socket",
			"there is no cluster selection, so the KAS dials webhooks, aggregated APIs and pods directly and the tunnel is never used")
		return
	}
	if sel.Connection.ProxyProtocol == egressconfig.ProtocolDirect {
		r.errorf("egress-cluster-direct", o.Ref(), fmt.Sprintf("egressSelections[%d].connection.proxyProtocol", i),
			"set proxyProtocol to HTTPConnect (server --mode=http-connect) or GRPC (--mode=grpc) with transport.uds",
			"the cluster selection is Direct, so traffic to the cluster network does not go through the tunnel")
	}
}

// loadEgress decodes the bundle's egress object, or returns nil when it is absent or broken.
func loadEgress(b *bundlemodel.Bundle) *egressconfig.Config {
	if b.Egress == nil || b.Egress.Malformed != nil {
		return nil
	}
	cfg, err := decodeEgress(b.Egress)
	if err != nil {
		return nil
	}
	return cfg
}
