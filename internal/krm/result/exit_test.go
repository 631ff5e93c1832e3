package result

import (
	"errors"
	"fmt"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func sev(ss ...framework.Severity) framework.Results {
	rs := framework.Results{}
	for i, s := range ss {
		rs = append(rs, New(s, "r", "Pod ns/n", "spec.x", fmt.Sprintf("m%d", i), ""))
	}
	return rs
}

// TestAdapter: each severity mix gives one exit code and, only when an
// error is among the results, an *Error holding all of them.
func TestAdapter(t *testing.T) {
	tests := []struct {
		name    string
		rs      framework.Results
		code    int
		errText string // "" = no error
	}{
		{"none", nil, 0, ""},
		{"empty", framework.Results{}, 0, ""},
		{"info", sev(framework.Info), 0, ""},
		{"warning", sev(framework.Warning), 0, ""},
		{"warnings and info", sev(framework.Warning, framework.Info, framework.Warning), 0, ""},
		{"error", sev(framework.Error), 1, "error: [r] Pod ns/n spec.x: m0"},
		{"warning then error", sev(framework.Warning, framework.Error), 1, "warning: [r] Pod ns/n spec.x: m0\n  error: [r] Pod ns/n spec.x: m1"},
		{"errors", sev(framework.Error, framework.Error), 1, "error: [r] Pod ns/n spec.x: m0\n  error: [r] Pod ns/n spec.x: m1"},
		{"no severity", sev(""), 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExitCode(tt.rs); got != tt.code {
				t.Errorf("ExitCode = %d, want %d", got, tt.code)
			}
			err := Err(tt.rs, nil)
			if tt.errText == "" {
				if err != nil {
					t.Fatalf("Err = %v, want nil", err)
				}
				return
			}
			var re *Error
			if !errors.As(err, &re) || len(re.Results) != len(tt.rs) {
				t.Fatalf("Err = %T %v, want an *Error holding all %d results", err, err, len(tt.rs))
			}
			if err.Error() != tt.errText {
				t.Errorf("Err text = %q, want %q", err.Error(), tt.errText)
			}
		})
	}
}

func TestErrOwnText(t *testing.T) {
	err := Err(sev(framework.Error, framework.Warning), func(rs framework.Results) string {
		return fmt.Sprintf("%d error(s)", Count(rs, framework.Error))
	})
	if err == nil || err.Error() != "1 error(s)" {
		t.Errorf("Err with text = %v, want \"1 error(s)\"", err)
	}
}

// TestCollect: returned results are recorded and become the error; recorded
// results fail the same way; any other error passes through unchanged.
func TestCollect(t *testing.T) {
	plain := errors.New("boom")
	tests := []struct {
		name     string
		recorded framework.Results
		returned error
		want     string // error text, "" = nil
		after    int    // results in rl after Collect
	}{
		{name: "clean", want: "", after: 0},
		{name: "recorded warning", recorded: sev(framework.Warning), want: "", after: 1},
		{name: "recorded error", recorded: sev(framework.Error), want: "error: [r] Pod ns/n spec.x: m0", after: 1},
		{name: "returned results", returned: sev(framework.Error), want: "error: [r] Pod ns/n spec.x: m0", after: 1},
		{name: "plain error", recorded: sev(framework.Warning), returned: plain, want: "boom", after: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rl := &framework.ResourceList{Results: tt.recorded}
			err := Collect(rl, tt.returned)
			if got := fmt.Sprint(err); (err == nil) != (tt.want == "") || err != nil && got != tt.want {
				t.Errorf("Collect = %v, want %q", err, tt.want)
			}
			if len(rl.Results) != tt.after {
				t.Errorf("recorded %d results, want %d", len(rl.Results), tt.after)
			}
		})
	}
}

// TestFunction: the KRM form folds the fix into the message, keeps only the
// rule tag and names the item the object is.
func TestFunction(t *testing.T) {
	pod, err := yaml.Parse("apiVersion: v1\nkind: Pod\nmetadata:\n  name: n\n  namespace: ns\n")
	if err != nil {
		t.Fatal(err)
	}
	in := framework.Results{
		New(framework.Error, "r", "Pod ns/n", "spec.x", "broken", "mend it"),
		New(framework.Warning, "b", "(bundle)", "", "odd", ""),
	}
	out := Function(in, []*yaml.RNode{pod})
	if got := out[0]; got.Message != "broken (fix: mend it)" || len(got.Tags) != 1 || got.Tags[tagRule] != "r" ||
		got.ResourceRef == nil || got.ResourceRef.APIVersion != "v1" || got.ResourceRef.Namespace != "ns" || FieldPath(got) != "spec.x" {
		t.Errorf("function result 0 = %+v", got)
	}
	if got := out[1]; got.Message != "odd" || got.ResourceRef != nil || got.Field != nil {
		t.Errorf("function result 1 = %+v", got)
	}
	if Fix(in[0]) != "mend it" || in[0].Message != "broken" {
		t.Errorf("Function changed its input: %+v", in[0])
	}
}
