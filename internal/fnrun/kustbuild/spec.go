package kustbuild

import (
	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// decodeSpec is a KonnectivityBundle config's spec as written, not defaulted.
func decodeSpec(c *yaml.RNode) (*bundle.Spec, error) {
	raw, err := c.MarshalJSON()
	if err != nil {
		return nil, err
	}
	cfg, err := bundle.Decode(raw)
	if err != nil {
		return nil, err
	}
	return &cfg.Spec, nil
}
