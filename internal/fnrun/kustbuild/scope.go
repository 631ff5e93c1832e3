package kustbuild

import (
	"fmt"
	"path/filepath"
	"slices"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Where a check runs. kustomize runs a transformer (or validator) on the
// output of the kustomization that lists it: base/check listed by
// overlays/ipv4 sees ipv4's bundle, before an overlay with
// `resources: [../ipv4]` patches it. The in-process build does exactly the
// same, so it and the kustomize CLI agree on both the bytes and the exit
// code. An overlay that patches another must therefore list
// ../../base/check last itself (docs/upi.md); render and `check` always
// check the complete bundle whatever the overlay lists.

// scopedCheck is a validator taken out of the kustomization in dir.
type scopedCheck struct {
	dir     string
	configs []*yaml.RNode
}

// validate runs the checks listed by the top kustomization (top) on its
// output m, and each check listed by an included kustomization on that
// kustomization's own output, built again on its own.
func (f *fnFS) validate(m resmap.ResMap, top string) error {
	var own []*yaml.RNode
	var nested []string
	for _, c := range f.checks {
		switch {
		case filepath.Clean(c.dir) == filepath.Clean(top):
			own = append(own, c.configs...)
		case !slices.Contains(nested, c.dir):
			nested = append(nested, c.dir)
		}
	}
	for _, dir := range nested {
		if err := f.validateIncluded(dir); err != nil {
			return err
		}
	}
	if len(own) == 0 {
		return nil
	}
	return f.runChecks(m, own)
}

// validateIncluded builds an included kustomization on its own and runs
// the checks it lists on that output, as kustomize does inside the build.
func (f *fnFS) validateIncluded(dir string) error {
	sub := newFnFS(f.FileSystem, f.getenv, f.fns)
	sub.ip, sub.specOnly, sub.overlay, sub.immutable = f.ip, f.specOnly, f.overlay, f.immutable
	sub.overridePin, sub.version = f.overridePin, f.version
	m, err := krusty.MakeKustomizer(kustomizerOptions()).Run(sub, dir)
	if sub.err != nil {
		err = sub.err
	}
	if err == nil {
		err = sub.validate(m, dir)
	}
	if err != nil {
		return fmt.Errorf("in %s, which this kustomization includes: %w", dir, err)
	}
	f.mu.Lock()
	f.notes = append(f.notes, sub.notes...)
	f.mu.Unlock()
	return nil
}
