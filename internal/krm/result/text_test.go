package result

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestText(t *testing.T) {
	f := New(framework.Error, "r", "Pod ns/n", "spec.x", "broken", "mend it")
	bare := New(framework.Error, "r", "Pod ns/n", "", "broken", "")
	info := New(framework.Info, "r", "Pod ns/n", "spec.x", "only so you know", "")
	fromFunction := Function(framework.Results{f}, nil)[0] // as kustomize shows it: the fix folded in, the object a ResourceRef
	fromFunction.ResourceRef = &yaml.ResourceIdentifier{TypeMeta: yaml.TypeMeta{Kind: "Pod"}, NameMeta: yaml.NameMeta{Name: "n", Namespace: "ns"}}
	noRule := New(framework.Error, "", "", "spec.proxyVersion", "required", "set it")
	tests := []struct {
		name string
		r    *framework.Result
		want string
	}{
		{"finding", f, "error: [r] Pod ns/n spec.x: broken (fix: mend it)"},
		{"without field and fix", bare, "error: [r] Pod ns/n: broken"},
		{"info", info, "info: [r] Pod ns/n spec.x: only so you know"},
		{"as a function returned it", fromFunction, "error: [r] Pod ns/n spec.x: broken (fix: mend it)"},
		{"a config field", noRule, "error: spec.proxyVersion: required (fix: set it)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.r); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSay: each result is said once per call, and quiet leaves out info
// but never a warning or an error.
func TestSay(t *testing.T) {
	info := New(framework.Info, "i", "Pod ns/n", "", "informs", "")
	warn := New(framework.Warning, "w", "Pod ns/n", "", "warns", "")
	rs := framework.Results{info, warn, info, warn}
	for _, tc := range []struct {
		quiet bool
		want  string
	}{
		{false, "info: [i] Pod ns/n: informs\nwarning: [w] Pod ns/n: warns\n"},
		{true, "warning: [w] Pod ns/n: warns\n"},
	} {
		var b strings.Builder
		if err := Say(&b, rs, tc.quiet); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("quiet %v: said %q, want %q", tc.quiet, b.String(), tc.want)
		}
	}
}

func TestNewReportCounts(t *testing.T) {
	rep := NewReport(framework.Results{
		New(framework.Error, "a", "Pod ns/n", "", "x", "fix"),
		New(framework.Warning, "b", "Pod ns/n", "spec.y", "y", ""),
	})
	if rep.Errors != 1 || rep.Warnings != 1 || len(rep.Findings) != 2 {
		t.Fatalf("report %+v", rep)
	}
	if r := rep.Findings[1]; r.Rule != "b" || r.Object != "Pod ns/n" || r.Field != "spec.y" || r.Message != "y" || r.Fix != "" {
		t.Errorf("record %+v", r)
	}
}
