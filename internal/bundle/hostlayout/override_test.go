package hostlayout

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestOverrideEgressFile: the one reading of the override's egress-file flag,
// as check reports it and the host readers infer the KAS mount from it.
func TestOverrideEgressFile(t *testing.T) {
	const head = "apiVersion: kubecontrolplane.config.openshift.io/v1\nkind: KubeAPIServerConfig\n"
	const want = "/etc/kubernetes/config/egress-selector-config.yaml"
	cases := []struct {
		name, file, want, err string
	}{
		{"one path", head + "apiServerArguments:\n  egress-selector-config-file: [" + want + "]\n", want, ""},
		{"no arguments", head, "", "apiServerArguments is missing, so the KAS never gets --egress-selector-config-file and does not use the tunnel"},
		{"arguments not a map", head + "apiServerArguments: [a]\n", "", "apiServerArguments is missing, so the KAS never gets --egress-selector-config-file and does not use the tunnel"},
		{"no flag", head + "apiServerArguments:\n  v: ['2']\n", "", "apiServerArguments has no egress-selector-config-file, so the KAS does not use the tunnel"},
		{"not a list", head + "apiServerArguments:\n  egress-selector-config-file: " + want + "\n", "", "apiServerArguments values are lists of strings; egress-selector-config-file is not a list"},
		{"two paths", head + "apiServerArguments:\n  egress-selector-config-file: [/a, /b]\n", "", "egress-selector-config-file must list exactly one non-empty path"},
		{"empty path", head + "apiServerArguments:\n  egress-selector-config-file: ['']\n", "", "egress-selector-config-file must list exactly one non-empty path"},
		{"not a scalar", head + "apiServerArguments:\n  egress-selector-config-file: [[/a]]\n", "", "egress-selector-config-file must list exactly one non-empty path"},
	}
	for _, tc := range cases {
		n, err := yaml.Parse(tc.file)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := OverrideEgressFile(n)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || gotErr != tc.err {
			t.Errorf("%s: OverrideEgressFile = %q, %q; want %q, %q", tc.name, got, gotErr, tc.want, tc.err)
		}
		file, ok := overrideFileEgressArg([]byte(tc.file))
		if file != tc.want || ok != (tc.err == "") {
			t.Errorf("%s: from the file = %q, %v; want %q, %v", tc.name, file, ok, tc.want, tc.err == "")
		}
	}
	for _, bad := range []string{"", "- a list\n", "a: [\n"} {
		if file, ok := overrideFileEgressArg([]byte(bad)); ok {
			t.Errorf("override file %q: read egress file %q, want none", bad, file)
		}
	}
}
