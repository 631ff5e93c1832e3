package kustbuild

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestPatchTargetNotFound: a patch naming an object its kustomization does
// not have fails naming the objects that kustomization has, not only
// kustomize's "failed to find unique target for patch".
func TestPatchTargetNotFound(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(t *testing.T, upi string) string // returns the directory to build
		patch string
		have  []string
	}{
		{"config patch with a misspelled metadata.name", func(t *testing.T, upi string) string {
			tooltest.EditFile(t, filepath.Join(upi, "config", "config-patch.yaml"), "  name: konnectivity\n", "  name: konnectivty\n")
			return upi
		}, "KonnectivityBundle konnectivty", []string{"KonnectivityBundle konnectivity"}},
		{"DaemonSet patch in the wrong namespace", func(t *testing.T, upi string) string {
			dir := filepath.Join(filepath.Dir(upi), "mine")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			kust := "resources:\n- ../upi\npatches:\n- patch: |-\n    apiVersion: apps/v1\n    kind: DaemonSet\n    metadata:\n      name: konnectivity-agent\n      namespace: kube-system\n    spec:\n      template:\n        spec:\n          nodeSelector: {a: b}\n"
			if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(kust), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}, "DaemonSet kube-system/konnectivity-agent", []string{"DaemonSet openshift-bootstrap-konnectivity/konnectivity-agent", "Pod kube-system/konnectivity-server"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			upi := filepath.Join(tooltest.ExecWiredTree(t), "overlays", "upi")
			_, err := Build(tc.edit(t, upi), Options{Getenv: noEnv})
			var pt *untargetedPatchError
			if !errors.As(err, &pt) {
				t.Fatalf("want a PatchTargetError, got %v", err)
			}
			if pt.Patch != tc.patch {
				t.Errorf("the patch names %q, want %q", pt.Patch, tc.patch)
			}
			for _, want := range tc.have {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the error does not name %s among the objects: %v", want, err)
				}
			}
		})
	}
}
