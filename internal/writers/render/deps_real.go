package render

import (
	"net/netip"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// realDeps wires the in-process build (kustbuild), the certificates (certs),
// the checks (check) and bootstrap IP detection (bootstrapip).
func realDeps() *deps {
	d := &deps{
		readSpec: kustbuild.ReadSpec,
		build:    kustbuild.BuildModel,
		agentSecret: func(p *certPlan, namespace, hostPath string) (*yaml.RNode, error) {
			return certs.AgentSecretNode(p.lib.(*certs.Result), namespace, hostPath)
		},
		check: func(b *bundlemodel.Bundle, certFiles map[string][]byte, allowEmpty bool) (framework.Results, error) {
			return check.CheckBundle(b, check.Options{CertFiles: certFiles, AllowEmpty: allowEmpty}), nil
		},
		detectIP: func(family bootstrapip.Family, getenv func(string) string) (bootstrapip.Detection, error) {
			return bootstrapip.Detect(family, getenv, nil)
		},
	}
	d.planCerts = func(dir string, ip netip.Addr) (*certPlan, error) {
		r, err := certs.Plan(certs.Options{Dir: dir, BootstrapIP: ip, KeyAlgorithm: d.keyAlgorithm, KeySize: d.keySize})
		if err != nil {
			return nil, err
		}
		return &certPlan{Generated: r.Generated, Reason: r.Reason, Files: r.Files, lib: r}, nil
	}
	return d
}
