package kustbuild

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/yamlguard"
)

// TestBuildGuardsEveryFile: each way a kustomization reads a file (the
// kustomization itself, a resource, a generators: entry, a patch) goes
// through the YAML guard; a file that is not YAML is held to the size limit
// only and left to kustomize.
func TestBuildGuardsEveryFile(t *testing.T) {
	bomb, err := os.ReadFile("../yamlguard/testdata/alias-bomb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n"
	cases := []struct {
		name  string
		files map[string]string
		limit yamlguard.Limit // "" = builds
	}{
		{"bomb as resource", map[string]string{"kustomization.yaml": "resources:\n- r.yaml\n", "r.yaml": string(bomb)}, yamlguard.LimitAliases},
		{"bomb in the kustomization", map[string]string{"kustomization.yaml": "resources: []\nfoo:\n" + strings.SplitN(string(bomb), "data:\n", 2)[1]}, yamlguard.LimitAliases},
		{"bomb as generator entry", map[string]string{"kustomization.yaml": "generators:\n- g.yaml\n", "g.yaml": string(bomb)}, yamlguard.LimitAliases},
		{"duplicate key in a patch", map[string]string{"kustomization.yaml": "resources:\n- r.yaml\npatches:\n- path: p.yaml\n", "r.yaml": cm,
			"p.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: w, k: x}\n"}, yamlguard.LimitDuplicate},
		{"huge env file", map[string]string{"kustomization.yaml": "configMapGenerator:\n- name: e\n  envs: [big.env]\n", "big.env": "K=" + strings.Repeat("v", yamlguard.MaxBytes) + "\n"}, yamlguard.LimitSize},
		{"non-YAML env file builds", map[string]string{"kustomization.yaml": "configMapGenerator:\n- name: e\n  envs: [a.env]\n", "a.env": "A=[unclosed\nB=\t{\n"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Build(dir, Options{})
			var ge *yamlguard.Error
			switch {
			case tc.limit == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.limit != "" && (!errors.As(err, &ge) || ge.Limit != tc.limit):
				t.Fatalf("got %v, want a %s refusal", err, tc.limit)
			}
		})
	}
}
