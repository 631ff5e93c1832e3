package render

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
)

// realDeps wires the packages of contracts 1-3 and internal/bootstrapip.
func realDeps() *deps {
	return &deps{
		build: func(target, ip, image string, getenv func(string) string) ([]byte, error) {
			return kustbuild.Build(target, kustbuild.Options{BootstrapIP: ip, Image: image, Getenv: getenv})
		},
		family: func(target string, getenv func(string) string) (string, error) {
			spec, err := kustbuild.Spec(target, kustbuild.Options{Getenv: getenv})
			if err != nil || spec == nil {
				return "", err
			}
			return spec.IPFamily, nil
		},
		planCerts: func(dir, ip string) (*certPlan, error) {
			r, err := certs.Plan(certs.Options{Dir: dir, BootstrapIP: ip})
			if err != nil {
				return nil, err
			}
			return &certPlan{Generated: r.Generated, Reason: r.Reason, Files: r.Files, lib: r}, nil
		},
		agentSecret: func(p *certPlan, namespace, hostPath string) ([]byte, error) {
			return certs.AgentSecret(p.lib.(*certs.Result), namespace, hostPath)
		},
		check: func(stream []byte, certFiles map[string][]byte, allowEmpty bool) ([]Finding, error) {
			fs, err := check.Check(stream, check.Options{CertFiles: certFiles, AllowEmpty: allowEmpty})
			if err != nil {
				return nil, err
			}
			out := make([]Finding, len(fs))
			for i, f := range fs {
				out[i] = Finding{Severity: string(f.Severity), Rule: f.Rule, Object: f.Object, Field: f.Field, Message: f.Message, Fix: f.Fix}
			}
			return out, nil
		},
		detectIP: func(family string, getenv func(string) string) (string, error) {
			det, err := bootstrapip.Detect(bootstrapip.Family(family), getenv, nil)
			if err != nil {
				return "", err
			}
			return det.Addr.String(), nil
		},
	}
}
