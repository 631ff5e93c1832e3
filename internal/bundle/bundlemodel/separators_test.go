package bundlemodel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

func TestCheckSeparators(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "functions", "check", "testdata", "bundle", "good.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	pod := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n"
	ns := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: b\n"
	cases := []struct {
		name, stream string
		err          string // substring; "" = accepted
	}{
		{"the good bundle", string(good), ""},
		{"separated", pod + "---\n" + ns, ""},
		{"separator with a comment and document end", pod + "...\n--- # next\n" + ns, ""},
		{"joined with cat", pod + ns, `line 5: a second "apiVersion" in one YAML document (the first is at line 1)`},
		{"kind first", "kind: Pod\napiVersion: v1\nkind: Namespace\n", `line 3: a second "kind"`},
		{"other duplicate key", "apiVersion: v1\ndata: {}\ndata: {}\n", `top-level key "data" appears twice`},
		{"indented and block scalar lines are not keys", "apiVersion: v1\nkind: ConfigMap\ndata:\n  kind: x\n  y: |\n    kind: z\n", ""},
		{"a URL is not a key", "apiVersion: v1\nkind: List\nitems:\n- |\nhttp://x\nhttp://y\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := checkSeparators([]byte(tc.stream))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("rejected: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
}
