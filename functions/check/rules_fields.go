package check

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/strictobj"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/krmconfig"
)

// UnknownFieldRule is the rule id of checkFields: a field that is bad
// input rather than a broken tunnel (render exits 3 for it, whichever step
// finds it).
const UnknownFieldRule = "unknown-field"

// checkFields: a field the object's Kubernetes type does not have
// (unknown-field), found by strict decoding (internal/bundle/strictobj). The API
// server drops such a field at apply time, so a misspelled nodeSelector in a
// patch would leave the agents unrestricted without a word. The
// KubeAPIServerConfig override has no Go type here; checkOverride reads it.
func checkFields(b *bundlemodel.Bundle, _ Options, r *report) {
	for _, o := range b.Objects {
		for _, p := range UnknownFields(o) {
			fix := p.Hint
			if fix == "" {
				fix = "remove the field"
			}
			r.errorf(UnknownFieldRule, o.Ref(), p.Path, fix,
				"%s: %s %s has no such field; the API server would drop it", p.Message, krmconfig.Article(o.APIVersion), o.Kind)
		}
	}
}

// UnknownFields are the problems strict decoding finds in o; none for a
// malformed object (checkMalformed reports it) or a kind without a type.
func UnknownFields(o *bundlemodel.Object) []strictobj.Problem {
	if o.Malformed != nil || !strictobj.Known(o.APIVersion, o.Kind) {
		return nil
	}
	js, err := o.Node.MarshalJSON()
	if err != nil {
		return nil
	}
	ps, err := strictobj.Check(o.APIVersion, o.Kind, js)
	if err != nil {
		return nil // a value of the wrong type: the object's own rules report it
	}
	return ps
}
