package check

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// bundleObject is what findings about the stream as a whole name.
const bundleObject = "(bundle)"

// checkEmpty: a bundle without a server pod (no-server-pod).
func checkEmpty(b *bundlemodel.Bundle, opts Options, r *report) {
	if b.Server != nil || opts.AllowEmpty {
		return
	}
	if found := presentRoles(b); len(found) > 0 {
		r.errorf("no-server-pod", bundleObject, "",
			"add the konnectivity-server static Pod (a container running /usr/bin/proxy-server), or pass --allow-empty to check only these pieces",
			"the bundle has %s but no pod whose container runs proxy-server", strings.Join(found, ", "))
		return
	}
	fix := "run kustomize with both flags: kustomize build --enable-alpha-plugins --enable-exec; for bootstrap-in-place, where no tunnel is deployed, pass --allow-empty"
	if len(b.Objects) == 0 { // nothing at all: say so first, then what kustomize does to a bundle
		r.errorf("no-server-pod", bundleObject, "", notABundleFix+"; "+fix,
			"%s; kustomize's output is empty like this when it skipped the KonnectivityBundle exec KRM function silently, "+
				"as it does with --enable-alpha-plugins but without --enable-exec (it still exits 0)", &bundlemodel.NotABundleError{})
		return
	}
	r.errorf("no-server-pod", bundleObject, "", fix,
		"the bundle has no proxy-server pod (%d objects, none of them Konnectivity): the KonnectivityBundle exec KRM function was most likely skipped silently, "+
			"which kustomize does when it runs with --enable-alpha-plugins but without --enable-exec (it still exits 0)", len(b.Objects))
}

// presentRoles lists the bundle parts present besides the server.
func presentRoles(b *bundlemodel.Bundle) []string {
	var out []string
	if b.Agent != nil {
		out = append(out, "the agent "+b.Agent.Object.Ref())
	}
	for _, o := range []*bundlemodel.Object{b.Egress, b.Override, b.Secret} {
		if o != nil {
			out = append(out, o.Ref())
		}
	}
	return out
}

// checkMalformed: objects that do not decode into their Kubernetes type
// (object-malformed), so no other rule can look at them.
func checkMalformed(b *bundlemodel.Bundle, _ Options, r *report) {
	for _, o := range b.Objects {
		if o.Malformed == nil {
			continue
		}
		ref := o.Ref()
		if o.Kind == "" && o.Name == "" {
			ref = fmt.Sprintf("%s document", bundleObject)
		}
		r.errorf("object-malformed", ref, "", "fix the object so it matches its Kubernetes type",
			"cannot be read as a %s: %v", orUnknown(o.Kind), o.Malformed)
	}
}

func orUnknown(kind string) string {
	if kind == "" {
		return "Kubernetes object"
	}
	return kind
}
