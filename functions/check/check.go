// Package check finds what would break a bootstrap Konnectivity bundle before
// a cluster install does: objects that disagree with each other, flags the real
// proxy-server and proxy-agent of the targeted version (internal/proxyversion.Versions)
// refuse, and KAS configuration the kube-apiserver would reject or silently
// ignore.
package check

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Options tune the checks.
type Options struct {
	// CertFiles are the certificate directory's files by name (ca.crt,
	// server.crt, agent.crt, ...); nil skips the checks that need them.
	CertFiles map[string][]byte
	// AllowMissingClusterCA turns a missing --cluster-ca-cert into a warning.
	AllowMissingClusterCA bool
	// AllowEmpty accepts a bundle without a server pod (bootstrap-in-place).
	AllowEmpty bool
}

// Check parses a YAML stream and returns every finding, in a deterministic
// order. The error is only for a stream that is not parsable YAML.
//
// A finding is one problem in the bundle: a result (internal/krm/result) whose
// tags name the rule (a stable kebab-case id; README.md lists every one),
// the object ("Kind namespace/name", or "Kind name" without a namespace)
// and the fix, and whose field is the path inside the object, e.g.
// spec.containers[0].args[3].
func Check(stream []byte, opts Options) (framework.Results, error) {
	b, err := bundlemodel.Parse(stream)
	if err != nil {
		return nil, err
	}
	return run(b, opts), nil
}

// CheckNodes is Check on objects already parsed (a KRM function's items);
// the nodes are only read.
func CheckNodes(nodes []*yaml.RNode, opts Options) framework.Results {
	return run(bundlemodel.New(nodes), opts)
}

// CheckBundle is Check on a bundle already read into its roles (render's
// model); it only reads it.
func CheckBundle(b *bundlemodel.Bundle, opts Options) framework.Results {
	return run(b, opts)
}

func run(b *bundlemodel.Bundle, opts Options) framework.Results {
	if r := notABundle(b); r != nil {
		return r.findings
	}
	r := &report{}
	for _, rule := range ruleFamilies {
		rule(b, opts, r)
	}
	return r.findings
}

// ruleFamilies run in this order; each family lives in its own rules_*.go file.
var ruleFamilies = []func(*bundlemodel.Bundle, Options, *report){
	checkEmpty,
	checkMalformed,
	checkFields,
	checkTarget,
	checkNames,
	checkServerFlags,
	checkAgentFlags,
	checkPorts,
	checkReadiness,
	checkRouting,
	checkHealthBind,
	checkEgress,
	checkOverride,
	checkPaths,
	checkMounts,
	checkCross,
	checkCerts,
}

// report collects findings.
type report struct{ findings framework.Results }

func (r *report) add(sev framework.Severity, rule, object, field, msg, fix string) {
	r.findings = append(r.findings, result.New(sev, rule, object, field, msg, fix))
}

func (r *report) errorf(rule, object, field, fix, format string, args ...any) {
	r.add(framework.Error, rule, object, field, fmt.Sprintf(format, args...), fix)
}

func (r *report) warnf(rule, object, field, fix, format string, args ...any) {
	r.add(framework.Warning, rule, object, field, fmt.Sprintf(format, args...), fix)
}
