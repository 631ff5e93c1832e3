package manifest

import (
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no kind", "apiVersion: v1\nmetadata: {name: a}\n", "document 1: object has no kind"},
		{"no name", "apiVersion: v1\nkind: Namespace\n", "document 1: object has no metadata.name"},
		{"no apiVersion", "---\n# empty\n---\nkind: Namespace\nmetadata: {name: a}\n", "document 2: object has no apiVersion"},
		{"duplicate", "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n", "document 2: v1 Namespace a appears twice (first in document 1)"},
		{"list", "- a\n- b\n", "document 1: not a YAML mapping"},
		{"bad yaml", "a: [1\n", "document 1: not valid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParseSkipsEmptyDocumentsAndAcceptsJSON(t *testing.T) {
	objs, err := Parse([]byte("---\n# only a comment\n---\n{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"x\"}}\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 || objs[0].ID.String() != "v1 Namespace x" {
		t.Fatalf("got %+v, want the one Namespace", objs)
	}
}

// TestFields: asMap and annotation read nested fields without nil checks, and
// a missing or mistyped step gives the empty value, not a panic.
func TestFields(t *testing.T) {
	objs, err := Parse([]byte(`apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations: {placement: static-pod, count: 3}
spec:
  containers: [{name: c}]
  hostNetwork: true
`))
	if err != nil {
		t.Fatal(err)
	}
	o := objs[0]
	for _, tc := range []struct {
		name string
		got  any
		want any
	}{
		{"annotation", o.annotation("placement"), "static-pod"},
		{"annotation not a string", o.annotation("count"), ""},
		{"annotation absent", o.annotation("other"), ""},
		{"map", o.asMap("spec")["hostNetwork"], true},
		{"map through a list", len(o.asMap("spec", "containers")), 0},
		{"map absent", len(o.asMap("status", "conditions")), 0},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
