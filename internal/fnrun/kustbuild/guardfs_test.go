package kustbuild

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
)

// TestBuildGuardsEveryFile: each way a kustomization reads a file (the
// kustomization itself, a resource, a generators: entry, a patch) goes
// through the YAML guard; a file that is not YAML is held to the size cap
// (internal/intake/inputread) only and left to kustomize.
func TestBuildGuardsEveryFile(t *testing.T) {
	bomb, err := os.ReadFile("../../intake/yamlguard/testdata/alias-bomb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n"
	cases := []struct {
		name   string
		files  map[string]string
		limit  yamlguard.Limit // "" = builds, or the cap when capped
		capped bool
	}{
		{"bomb as resource", map[string]string{"kustomization.yaml": "resources:\n- r.yaml\n", "r.yaml": string(bomb)}, yamlguard.LimitAliases, false},
		{"bomb in the kustomization", map[string]string{"kustomization.yaml": "resources: []\nfoo:\n" + strings.SplitN(string(bomb), "data:\n", 2)[1]}, yamlguard.LimitAliases, false},
		{"bomb as generator entry", map[string]string{"kustomization.yaml": "generators:\n- g.yaml\n", "g.yaml": string(bomb)}, yamlguard.LimitAliases, false},
		{"duplicate key in a patch", map[string]string{"kustomization.yaml": "resources:\n- r.yaml\npatches:\n- path: p.yaml\n", "r.yaml": cm,
			"p.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: w, k: x}\n"}, yamlguard.LimitDuplicate, false},
		{"huge env file", map[string]string{"kustomization.yaml": "configMapGenerator:\n- name: e\n  envs: [big.env]\n", "big.env": "K=" + strings.Repeat("v", inputread.MaxYAML) + "\n"}, "", true},
		{"non-YAML env file builds", map[string]string{"kustomization.yaml": "configMapGenerator:\n- name: e\n  envs: [a.env]\n", "a.env": "A=[unclosed\nB=\t{\n"}, "", false},
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
			case tc.capped:
				if !errors.Is(err, inputread.ErrTooLarge) {
					t.Fatalf("got %v, want the cap error", err)
				}
			case tc.limit == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.limit != "" && (!errors.As(err, &ge) || ge.Limit != tc.limit):
				t.Fatalf("got %v, want a %s refusal", err, tc.limit)
			}
		})
	}
}

// A FIFO or a device where a kustomization names a file (a resource, or a
// generator entry that fnFS looks at before kustomize does) is refused
// before it is opened, naming it: opening a FIFO waits for a writer that
// may never come, so no writer is started here, and the build must end
// all the same. (kustomize itself refuses a link out of its tree.)
func TestBuildRefusesASpecialFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "r.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("cannot make a FIFO here: %v", err)
	}
	kinds := map[string]string{
		"a FIFO resource":        "resources:\n- r.yaml\n",
		"a FIFO generator entry": "generators:\n- r.yaml\n",
	}
	// /dev/zero's own device numbers, made in the tree (root only).
	if err := syscall.Mknod(filepath.Join(dir, "zero"), syscall.S_IFCHR|0o600, 1<<8|5); err == nil {
		kinds["a device generator entry"] = "generators:\n- zero\n"
	} else {
		t.Logf("not root, so no device case: mknod: %v", err)
	}
	for name, kust := range kinds {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(kust), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Build(dir, Options{})
			var special *SpecialFileError
			if !errors.As(err, &special) || !IsBadInput(err) || !strings.Contains(err.Error(), "not a regular file") {
				t.Fatalf("got %v, want the special-file refusal, as bad input", err)
			}
		})
	}
	// One outside the tree is kustomize's to refuse; the build never opens it.
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("generators:\n- /dev/stdin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(dir, Options{}); !errors.As(err, new(*OutsideFileError)) {
		t.Errorf("generators: [/dev/stdin]: got %v, want kustomize's refusal of a file outside the directory", err)
	}
}
