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
