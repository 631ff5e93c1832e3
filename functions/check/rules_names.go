package check

import (
	"strconv"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// checkNames: the objects the bundle's roles are read from have names the
// API server accepts (object-name-invalid): metadata.namespace a DNS-1123
// label, metadata.name a DNS-1123 subdomain (a label for a Namespace).
// Reports and generated firewall rules carry these names, so one that no
// cluster would accept is refused, never carried along.
func checkNames(b *bundlemodel.Bundle, _ Options, r *report) {
	for _, o := range namedObjects(b) {
		nameRule := validation.IsDNS1123Subdomain
		if o.Kind == "Namespace" {
			nameRule = validation.IsDNS1123Label
		}
		for _, f := range []struct {
			field, value string
			valid        func(string) []string
		}{{"metadata.namespace", o.Namespace, validation.IsDNS1123Label}, {"metadata.name", o.Name, nameRule}} {
			if f.value == "" {
				continue
			}
			if errs := f.valid(f.value); len(errs) > 0 {
				r.errorf("object-name-invalid", quotedRef(o), f.field, "give the object a name Kubernetes accepts: lower-case letters, digits and '-' (and '.' in a name), e.g. konnectivity-agent",
					"%s %q is not a valid Kubernetes name: %s", f.field, f.value, strings.Join(errs, "; "))
			}
		}
	}
}

// namedObjects are the objects whose names reports and rules carry.
func namedObjects(b *bundlemodel.Bundle) []*bundlemodel.Object {
	var out []*bundlemodel.Object
	for _, w := range []*bundlemodel.Workload{b.Server, b.Agent} {
		if w != nil {
			out = append(out, w.Object)
		}
	}
	for _, o := range []*bundlemodel.Object{b.Secret, b.Namespace} {
		if o != nil {
			out = append(out, o)
		}
	}
	return out
}

// quotedRef is o.Ref(), quoted when it holds anything that does not print
// (a newline, an escape sequence), so that a finding cannot forge lines.
func quotedRef(o *bundlemodel.Object) string {
	ref := o.Ref()
	if strings.ContainsFunc(ref, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(ref)
	}
	return ref
}

// RuleInputs checks the values `ports` copies from a bundle into firewall
// rules with the rules check applies to them, so that ports refuses what
// check refuses, with the same findings: the server's and agents' names
// (object-name-invalid), then, when those are sound, the agents'
// --proxy-server-host (proxy-server-host-invalid).
func RuleInputs(b *bundlemodel.Bundle) framework.Results {
	r := &report{}
	checkNames(b, Options{}, r)
	if len(r.findings) == 0 && b.Agent != nil {
		checkServerHost(b, r)
	}
	return r.findings
}
