package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadBundleUnknownFields: ports and diff refuse a bundle FILE or
// stdin with a field its object's type does not have, as they refuse a
// kustomization directory that builds one (ports 1, diff 2), naming the
// input, the object, the field and the field meant; check keeps reporting
// it as a finding (exit 1).
func TestReadBundleUnknownFields(t *testing.T) {
	data, err := os.ReadFile(golden("ipv4"))
	if err != nil {
		t.Fatal(err)
	}
	const good = "\n      priorityClassName: system-node-critical\n"
	if !strings.Contains(string(data), good) {
		t.Fatal("the golden agent DaemonSet has no priorityClassName to put a field beside")
	}
	bad := strings.Replace(string(data), good, good+"      nodeSelecter:\n        node-role.kubernetes.io/master: \"\"\n", 1)
	file := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	const field = `DaemonSet openshift-bootstrap-konnectivity/konnectivity-agent: spec.template.spec.nodeSelecter: unknown field (did you mean "nodeSelector"?)`
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  []string
	}{
		{"ports FILE", "", []string{"ports", file}, 1, []string{file + " has fields its Kubernetes types do not", field}},
		{"ports -", bad, []string{"ports", "-"}, 1, []string{"stdin has fields its Kubernetes types do not", field}},
		{"diff FILE FILE", "", []string{"diff", golden("ipv4"), file}, 2, []string{"B: " + file + " has fields", field}},
		{"diff - FILE", bad, []string{"diff", "-", golden("ipv4")}, 2, []string{"A: stdin has fields", field}},
		{"check FILE: a finding", "", []string{"check", file}, 1, []string{"spec.template.spec.nodeSelecter: unknown field"}},
		{"ports of the clean file", "", []string{"ports", golden("ipv4")}, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", w, stdout, stderr)
				}
			}
		})
	}
}
