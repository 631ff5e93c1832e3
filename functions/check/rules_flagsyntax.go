package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// checkFlagSyntax: flags the binary does not have (unknown-flag) and values it
// cannot parse (flag-value-invalid); either makes the binary exit at start.
func checkFlagSyntax(w *bundlemodel.Workload, r *report) {
	ref, bin := w.Object.Ref(), w.Flags.Binary
	for _, u := range w.Flags.Unknown {
		name := strings.TrimPrefix(u.Name, "-")
		if since, newer := bin.IntroducedIn(name); since != "" {
			fix := "remove it: the targeted proxy cannot take it"
			if newer != nil {
				fix += fmt.Sprintf(", or target %s if the image runs that proxy (spec.proxyVersion, --proxy-version)", newer.Describe())
			}
			r.errorf("unknown-flag", ref, u.Field, fix,
				"%s %s has no flag --%s (it arrived in %s) and exits with `unknown flag`", bin.Name, bin.Version.Describe(), name, since)
			continue
		}
		fix := "remove it or correct the spelling"
		if norm := strings.ReplaceAll(u.Name, "_", "-"); norm != u.Name {
			if _, ok := bin.Flags[norm]; ok {
				fix = "write --" + norm + " (ANP turns klog's underscores into dashes)"
			}
		}
		r.errorf("unknown-flag", ref, u.Field, fix,
			"%s has no flag --%s and exits with `unknown flag`", bin.Name, name)
	}
	for _, u := range w.Flags.Missing {
		r.errorf("flag-value-invalid", ref, u.Field, "write --"+u.Name+"=VALUE",
			"--%s needs a value and is the last argument", u.Name)
	}
	names := append([]string(nil), w.Flags.Order...)
	sort.Strings(names)
	for _, name := range names {
		u := w.Flags.Last[name]
		if msg := bin.Flags[name].Kind.ParseError(u.Value); msg != "" {
			r.errorf("flag-value-invalid", ref, u.Field, "give --"+name+" a valid value",
				"--%s=%q is not %s; %s refuses to start", name, u.Value, msg, bin.Name)
		}
	}
}
