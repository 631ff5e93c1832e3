package kustbuild

import (
	"path/filepath"

	certs "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// withCertDir is a KonnectivityCerts config as kustomize would run it from
// the kustomization in dir: kustomize starts the exec function there, so a
// relative spec.certDir names a directory beside the kustomization
// (functions/certs/README.md). In-process there is no such working
// directory, so the config is given the path it names; other kinds, an
// absolute or unset certDir, and the embedded tree (no directory on disk)
// are left as they are.
func (f *fnFS) withCertDir(dir string, c *yaml.RNode) (*yaml.RNode, error) {
	if c.GetKind() != certs.Kind || f.immutable {
		return c, nil
	}
	field, err := c.Pipe(yaml.Lookup("spec", "certDir"))
	if err != nil || field == nil || field.YNode().Kind != yaml.ScalarNode {
		return c, nil // unset, or not a string: the function names the fault
	}
	certDir := field.YNode().Value
	if certDir == "" || filepath.IsAbs(certDir) {
		return c, nil
	}
	c = c.Copy()
	return c, c.PipeE(yaml.Lookup("spec"), yaml.SetField("certDir", yaml.NewStringRNode(filepath.Join(dir, certDir))))
}
