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

// A resource that is a FIFO whose writer never stops is read up to the
// cap and refused with the cap error naming the file; the writer is let go
// when the build closes its end. (kustomize itself refuses a link out of
// its tree, and a kustomization file that is not a regular file.)
func TestBuildCapsAnEndlessFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources:\n- r.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "r.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		chunk := []byte(strings.Repeat("# endless\n", 4096))
		for {
			if _, err := w.Write(chunk); err != nil {
				return // the build closed its end
			}
		}
	}()
	_, err := Build(dir, Options{})
	if !errors.Is(err, inputread.ErrTooLarge) || !strings.Contains(err.Error(), "r.yaml is larger than the 8 MiB cap") {
		t.Fatalf("got %v, want the cap error naming r.yaml", err)
	}
	<-done
}
