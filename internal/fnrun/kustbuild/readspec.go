package kustbuild

import (
	"errors"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// errSpecRead stops a ReadSpec run once it has the spec: kustomize aborts
// on a file it cannot read, so the rest of the overlay is never built.
var errSpecRead = errors.New("KonnectivityBundle spec read")

// ReadSpec returns target's KonnectivityBundle spec as its generator would
// get it: the first such config after every overlay patch, defaulted except
// spec.bootstrapIP, which is the config's own or "". The run stops at that
// config and generates nothing, so the bootstrap IP can be settled from the
// overlay's own address and family before the one build (render, by
// bootstrapip.Resolve). nil when
// target has no such config, or one that does not decode (the build's
// generator names its fault). A build error before the config is the one
// the build reports.
func ReadSpec(target string, opts Options) (*bundle.Spec, error) {
	fsys, dir, err := resolve(target)
	if err != nil {
		return nil, err
	}
	_, f, err := run(fsys, dir, target, opts, true)
	if err != nil {
		return nil, err
	}
	return f.spec, nil
}

// readOwnSpec records config c's own spec for ReadSpec and returns
// errSpecRead to stop the run.
func (f *fnFS) readOwnSpec(c *yaml.RNode) error {
	if spec, err := decodeSpec(c); err == nil {
		own := f.ownSpec(*spec)
		f.mu.Lock()
		f.spec = &own
		f.mu.Unlock()
	}
	return errSpecRead
}

// ownSpec is spec defaulted except bootstrapIP: the config's own address
// or "", never the environment's, so the overlay's own address is told
// apart from a default.
func (f *fnFS) ownSpec(spec bundle.Spec) bundle.Spec {
	spec.DefaultWith(bundle.Inputs{ProxyVersion: f.version, Getenv: func(k string) string {
		if k == bundle.EnvBootstrapIP {
			return ""
		}
		return f.getenv(k)
	}})
	return spec
}
