package bundlemodel

import (
	"testing"
)

// TestNotABundle: a stream with documents none of which is a Kubernetes
// object is no bundle, said with what its first document is; an empty
// stream and one object are left alone.
func TestNotABundle(t *testing.T) {
	for _, tc := range []struct {
		name, stream, want string
	}{
		{"empty", "", ""},
		{"an object", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n", ""},
		{"text", "root:x:0:0:root:/root:/bin/bash\n", `not a bundle: none of its 1 YAML document(s) is a Kubernetes object (apiVersion and kind); the first is plain text (a YAML scalar), beginning "root:x:0:0:root:/root:/bin/bash"`},
		{"a list", "- a\n- b\n", `not a bundle: none of its 1 YAML document(s) is a Kubernetes object (apiVersion and kind); the first is a list, beginning "- a"`},
		{"mappings without kind", "a: b\n---\nc: d\n", `not a bundle: none of its 2 YAML document(s) is a Kubernetes object (apiVersion and kind); the first is a mapping without apiVersion and kind, beginning "a: b"`},
		{"a long first line", "x: 0123456789012345678901234567890123456789\n", `not a bundle: none of its 1 YAML document(s) is a Kubernetes object (apiVersion and kind); the first is a mapping without apiVersion and kind, beginning "x: 0123456789012345678901234567890123456..."`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Parse([]byte(tc.stream))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := b.NotABundle(); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("NotABundle: %q\nwant %q", got, tc.want)
			}
		})
	}
	if got, want := (&NotABundleError{}).Error(), "not a bundle: the input is empty, no object at all"; got != want {
		t.Errorf("the empty error: %q, want %q", got, want)
	}
}
