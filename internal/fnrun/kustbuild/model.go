package kustbuild

import (
	"fmt"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Model is one build held as parsed objects, so a caller such as render can
// keep it from the build to the write instead of re-reading YAML text.
type Model struct {
	// Nodes are the built objects in output order, each parsed once from
	// exactly the bytes Build prints for it (kustomize's key order and styles).
	Nodes []*yaml.RNode
	// Spec is the defaulted spec of the KonnectivityBundle config the
	// generator ran (the first, when there are several), its bootstrapIP as
	// the config wrote it; nil when the target has none.
	Spec *bundle.Spec
}

// BuildModel builds target like Build and returns the objects and the
// generator's spec from that same build. opts.BootstrapIP is settled by
// the same rule as Build's (bootstrapip.Settle), so an address the caller
// settled already against the spec ReadSpec read passes as it is.
func BuildModel(target string, opts Options) (*Model, error) {
	fsys, dir, err := resolve(target)
	if err != nil {
		return nil, err
	}
	m, f, err := run(fsys, dir, target, opts, false)
	if err != nil {
		return nil, err
	}
	nodes, err := modelNodes(m)
	if err != nil {
		return nil, fmt.Errorf("building %s: %w", describe(target, dir), err)
	}
	return &Model{Nodes: nodes, Spec: f.spec}, nil
}

// modelNodes parses each resource from its printed form. kustomize prints
// through JSON, which orders keys and normalises styles; parsing that form
// keeps the model byte-for-byte what `kustomize build` shows.
func modelNodes(m resmap.ResMap) ([]*yaml.RNode, error) {
	out := make([]*yaml.RNode, 0, m.Size())
	for _, r := range m.Resources() {
		text, err := r.AsYAML()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.CurId(), err)
		}
		n, err := yaml.Parse(string(text))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.CurId(), err)
		}
		out = append(out, n)
	}
	return out, nil
}
