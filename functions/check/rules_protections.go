package check

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// checkProtections holds the server to the protections ANP added after
// production incidents (functions/check/README.md), each judged by its row
// of proxyversion.Protections: on a version with the flag, the value the
// server runs with; on one without, what that means, where the row says.
func checkProtections(w *bundlemodel.Workload, r *report) {
	f, ref, args := w.Flags, w.Object.Ref(), w.Field+".args"
	for _, p := range proxyversion.Protections {
		flag, has := f.Binary.Flags[p.Flag]
		switch {
		case has:
			r.problem(p.Check(f.ValueOr(p.Flag), flag), ref, f.FieldOr(p.Flag, args))
		case p.Absent != nil:
			r.problem(p.Absent(f.Binary.Version, f.ValueOr("mode")), ref, args)
		}
	}
}

// levels are how check reports each proxyversion.Level.
var levels = map[proxyversion.Level]framework.Severity{
	proxyversion.Note:  framework.Info,
	proxyversion.Weak:  framework.Warning,
	proxyversion.Fatal: framework.Error,
}

// problem reports a protection's Problem, if any.
func (r *report) problem(p *proxyversion.Problem, object, field string) {
	if p != nil {
		r.add(levels[p.Level], p.Rule, object, field, p.Message, p.Fix)
	}
}
