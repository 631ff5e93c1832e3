package kustbuild

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
)

// TestPatchBodyKeys builds every kustomization under testdata/patchkeys:
// each error/<case> must be refused as a duplicate key with every line of
// its errors.txt in the message (the kustomization, the patch's field,
// index and path or target, the key and its lines); each success/<case>
// must build, with every line of its expected.txt in the output.
func TestPatchBodyKeys(t *testing.T) {
	for _, kind := range []string{"error", "success"} {
		dirs, err := os.ReadDir(filepath.Join("testdata", "patchkeys", kind))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range dirs {
			dir, err := filepath.Abs(filepath.Join("testdata", "patchkeys", kind, d.Name()))
			if err != nil {
				t.Fatal(err)
			}
			t.Run(kind+"/"+d.Name(), func(t *testing.T) {
				out, err := Build(dir, Options{})
				wantFile := "expected.txt"
				if kind == "error" {
					wantFile = "errors.txt"
					var ge *yamlguard.Error
					if !errors.As(err, &ge) || ge.Limit != yamlguard.LimitDuplicate {
						t.Fatalf("got %v, want a duplicate-key refusal", err)
					}
				} else if err != nil {
					t.Fatalf("refused: %v", err)
				}
				got := string(out)
				if err != nil {
					got = err.Error()
				}
				want, rerr := os.ReadFile(filepath.Join(dir, wantFile))
				if rerr != nil {
					t.Fatal(rerr)
				}
				for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
					if !strings.Contains(got, line) {
						t.Errorf("lacks %q:\n%s", line, got)
					}
				}
			})
		}
	}
}
