package render

import (
	"net/netip"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// deps are render's collaborators: the in-process build (and the read of
// its spec before it), the certificate library, the bundle checks and IP
// detection. Tests swap single functions to inject failures; production
// uses realDeps.
type deps struct {
	readSpec    func(target string, opts kustbuild.Options) (*bundlev1.Spec, error)
	build       func(target string, opts kustbuild.Options) (*kustbuild.Model, error)
	planCerts   func(dir string, bootstrapIP netip.Addr) (*certPlan, error)
	agentSecret func(p *certPlan, namespace, hostPath string) (*yaml.RNode, error)
	check       func(b *bundlemodel.Bundle, certFiles map[string][]byte, allowEmpty bool) (framework.Results, error)
	detectIP    func(family bootstrapip.Family, getenv func(string) string) (bootstrapip.Detection, error)

	// keyAlgorithm and keySize are what new certificates are made with.
	keyAlgorithm string
	keySize      int
}

// certPlan is the certificate library's decision for the certificate
// directory: the six files as they are, or will be, on disk.
type certPlan struct {
	Generated bool
	Reason    string
	Files     map[string][]byte
	lib       any // the library's own result, handed back to agentSecret
}

func (o *Options) collaborators() *deps {
	d := o.deps
	if d == nil {
		d = realDeps()
	}
	d.keyAlgorithm, d.keySize = o.KeyAlgorithm, o.KeySize
	return d
}
