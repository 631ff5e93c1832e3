package krmconfig

import (
	"errors"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
)

type testConfig struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Spec       struct {
		Port  int32 `json:"port,omitempty"`
		Inner struct {
			Name string `json:"name,omitempty"`
		} `json:"inner,omitempty"`
		Items []struct {
			Key string `json:"key,omitempty"`
		} `json:"items,omitempty"`
	} `json:"spec"`
}

func TestDecode(t *testing.T) {
	const head = "apiVersion: test/v1\nkind: Test\n"
	cases := []struct {
		name, yaml string
		want       []string // substrings of the error, in order; none = success
	}{
		{"valid", head + "spec: {port: 8091, inner: {name: a}, items: [{key: k}]}", nil},
		{"misspelled with suggestion", head + "spec: {prot: 1}", []string{`spec.prot: unknown field (fix: did you mean "port"?)`}},
		{"nested path", head + "spec: {inner: {nmae: a}}", []string{`spec.inner.nmae: unknown field`, `"name"`}},
		{"list item path", head + "spec: {items: [{key: a}, {kye: b}]}", []string{`spec.items[1].kye: unknown field`}},
		{"no close match lists fields", head + "spec: {zzzzzzzz: 1}", []string{"known fields: inner, items, port"}},
		{"every unknown field", head + "spec: {a1: 1, b1: 2}", []string{"spec.a1", "spec.b1"}},
		{"wrong type", head + "spec: {port: eighty}", []string{"spec.port: got a string, want an int32"}},
		{"wrong kind", "apiVersion: test/v1\nkind: Other\nspec: {}", []string{"apiVersion/kind: got test/v1 Other", "use apiVersion: test/v1 and kind: Test"}},
		{"not a mapping", "- a\n- b\n", []string{"must be a YAML mapping"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var cfg testConfig
			err := Decode([]byte(tc.yaml), "test/v1", "Test", &cfg)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if cfg.Spec.Port != 8091 || cfg.Spec.Inner.Name != "a" || cfg.Spec.Items[0].Key != "k" {
					t.Fatalf("decoded wrong values: %+v", cfg)
				}
				return
			}
			if err == nil {
				t.Fatal("expected an error")
			}
			rest := err.Error()
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("error %q lacks %q (in order)", err, w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

func TestResultsFlattensEveryFieldError(t *testing.T) {
	err := errors.Join(
		FieldErrors{{Field: "spec.a", Message: "bad", Fix: "fix a"}, {Field: "spec.b", Message: "worse"}},
		&FieldError{Field: "spec.c", Message: "pointer"},
		errors.New("plain"),
	)
	rs := result.FromError(err)
	want := []struct{ field, msg string }{{"spec.a", "bad (fix: fix a)"}, {"spec.b", "worse"}, {"spec.c", "pointer"}, {"", "plain"}}
	if len(rs) != len(want) {
		t.Fatalf("got %d results, want %d: %v", len(rs), len(want), rs)
	}
	for i, w := range want {
		field := ""
		if rs[i].Field != nil {
			field = rs[i].Field.Path
		}
		if field != w.field || rs[i].Message != w.msg || rs[i].Severity != "error" {
			t.Errorf("result %d = %q %q %q, want field %q message %q", i, rs[i].Severity, field, rs[i].Message, w.field, w.msg)
		}
	}
}
