// Package check finds what would break a bootstrap Konnectivity bundle before
// a cluster install does: objects that disagree with each other, flags the real
// proxy-server and proxy-agent (ANP v0.36.0) refuse, and KAS configuration the
// kube-apiserver would reject or silently ignore.
package check

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Severity says whether a finding breaks the bundle.
type Severity string

// Severities a finding can have.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Finding is one problem in the bundle.
type Finding struct {
	Severity Severity `json:"severity"`
	// Rule is a stable kebab-case id (README.md lists every one).
	Rule string `json:"rule"`
	// Object is "Kind namespace/name", or "Kind name" without a namespace.
	Object string `json:"object"`
	// Field is the path inside Object, e.g. spec.containers[0].args[3].
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// String renders the finding as one text line:
// `severity  object  field: message (fix: ...)`.
func (f Finding) String() string {
	s := fmt.Sprintf("%s  %s  ", f.Severity, f.Object)
	if f.Field != "" {
		s += f.Field + ": "
	}
	s += f.Message
	if f.Fix != "" {
		s += " (fix: " + f.Fix + ")"
	}
	return s
}

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
func Check(stream []byte, opts Options) ([]Finding, error) {
	b, err := parseBundle(stream)
	if err != nil {
		return nil, err
	}
	return run(b, opts), nil
}

// CheckNodes is Check on objects already parsed (a KRM function's items);
// the nodes are only read.
func CheckNodes(nodes []*yaml.RNode, opts Options) []Finding {
	return run(newBundle(nodes), opts)
}

func run(b *bundle, opts Options) []Finding {
	r := &report{}
	for _, rule := range ruleFamilies {
		rule(b, opts, r)
	}
	return r.findings
}

// HasErrors reports whether any finding has severity error.
func HasErrors(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}

// ruleFamilies run in this order; each family lives in its own rules_*.go file.
var ruleFamilies = []func(*bundle, Options, *report){
	checkEmpty,
	checkMalformed,
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
type report struct{ findings []Finding }

func (r *report) add(sev Severity, rule, object, field, msg, fix string) {
	r.findings = append(r.findings, Finding{Severity: sev, Rule: rule, Object: object, Field: field, Message: msg, Fix: fix})
}

func (r *report) errorf(rule, object, field, fix, format string, args ...any) {
	r.add(SeverityError, rule, object, field, fmt.Sprintf(format, args...), fix)
}

func (r *report) warnf(rule, object, field, fix, format string, args ...any) {
	r.add(SeverityWarning, rule, object, field, fmt.Sprintf(format, args...), fix)
}
