package kustbuild

import (
	"fmt"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Spec returns the defaulted KonnectivityBundle spec a target would generate
// from, after every overlay patch, without generating or validating it, so a
// caller can learn e.g. the IP family before it has a bootstrap IP. It
// returns nil when the target has no KonnectivityBundle config.
func Spec(target string, opts Options) (*bundle.Spec, error) {
	fsys, dir, err := resolve(target)
	if err != nil {
		return nil, err
	}
	getenv := opts.env()
	f := newFnFS(fsys, getenv)
	f.inspect = true
	if _, err := krusty.MakeKustomizer(kustomizerOptions()).Run(f, dir); err != nil {
		return nil, fmt.Errorf("reading the config of %s: %w", describe(target, dir), err)
	}
	for _, c := range f.configs {
		if c.GetKind() != bundle.Kind {
			continue
		}
		spec, err := decodeSpec(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", describe(target, dir), err)
		}
		spec.Default(getenv)
		return spec, nil
	}
	return nil, nil
}

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
