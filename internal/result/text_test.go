package result

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

func TestLines(t *testing.T) {
	f := New(framework.Error, "r", "Pod ns/n", "spec.x", "broken", "mend it")
	bare := New(framework.Error, "r", "Pod ns/n", "", "broken", "")
	tests := []struct {
		name string
		line func(*framework.Result) string
		r    *framework.Result
		want string
	}{
		{"check line", Line, f, "error  Pod ns/n  spec.x: broken (fix: mend it)"},
		{"check line without field and fix", Line, bare, "error  Pod ns/n  broken"},
		{"render line", RuleLine, f, "[r] Pod ns/n spec.x: broken (fix: mend it)"},
		{"render line without field and fix", RuleLine, bare, "[r] Pod ns/n: broken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.line(tt.r); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
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
