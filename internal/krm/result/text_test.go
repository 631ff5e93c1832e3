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

// TestSay: each result is said once per call, and info results are said
// only when asked, never leaving out a warning or an error.
func TestSay(t *testing.T) {
	info := New(framework.Info, "i", "Pod ns/n", "", "informs", "")
	warn := New(framework.Warning, "w", "Pod ns/n", "", "warns", "")
	rs := framework.Results{info, warn, info, warn}
	for _, tc := range []struct {
		info bool
		want string
	}{
		{true, "info: [i] Pod ns/n: informs\nwarning: [w] Pod ns/n: warns\n"},
		{false, "warning: [w] Pod ns/n: warns\n"},
	} {
		var b strings.Builder
		if err := Say(&b, rs, tc.info); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("info %v: said %q, want %q", tc.info, b.String(), tc.want)
		}
	}
}

// TestSaysInfo: a list (check) says info unless -q; a build or render only
// with -v; -q wins over -v.
func TestSaysInfo(t *testing.T) {
	for _, tc := range []struct {
		lists, quiet, verbose, want bool
	}{
		{true, false, false, true}, {true, true, false, false}, {true, false, true, true}, {true, true, true, false},
		{false, false, false, false}, {false, true, false, false}, {false, false, true, true}, {false, true, true, false},
	} {
		if got := SaysInfo(tc.lists, tc.quiet, tc.verbose); got != tc.want {
			t.Errorf("SaysInfo(lists %v, quiet %v, verbose %v) = %v, want %v", tc.lists, tc.quiet, tc.verbose, got, tc.want)
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
