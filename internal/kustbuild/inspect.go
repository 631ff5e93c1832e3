package kustbuild

import (
	"fmt"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"sigs.k8s.io/kustomize/api/krusty"
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
		raw, err := c.MarshalJSON()
		if err != nil {
			return nil, err
		}
		cfg, err := bundle.Decode(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", describe(target, dir), err)
		}
		cfg.Spec.Default(getenv)
		return &cfg.Spec, nil
	}
	return nil, nil
}
