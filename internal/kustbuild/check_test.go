package kustbuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/tooltest"
)

// brokenOverlay writes an overlay that adds --server-cert to the UDS server,
// the enhancement's flag-table mistake that the real proxy-server rejects.
func brokenOverlay(t *testing.T) string {
	// kustomize refuses absolute paths, so the overlay lives inside the
	// repository (under the git-ignored _output) and names the base relatively.
	parent := filepath.Join(tooltest.RepoRoot(), "_output")
	if err := os.MkdirAll(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(parent, "broken-overlay-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	kust := `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
generators:
- ../../base/function
patches:
- target: {kind: Pod, name: konnectivity-server}
  patch: |-
    - op: add
      path: /spec/containers/0/args/-
      value: --server-cert=/etc/konnectivity/server.crt
transformers:
- ../../base/check
`
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(kust), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestWiredCheckFailsTheBuild: the check listed under transformers: fails a
// bundle an overlay broke, in-process and through the real kustomize CLI.
func TestWiredCheckFailsTheBuild(t *testing.T) {
	dir := brokenOverlay(t)
	opts := inputs(t, "ipv4")
	_, err := Build(dir, opts)
	if err == nil || !strings.Contains(err.Error(), "--server-cert") {
		t.Fatalf("in-process build of a broken overlay: got %v, want a check error naming --server-cert", err)
	}
	cli := newKustomizeCLI(t)
	if out, err := cli.build(t, dir, opts, "--enable-alpha-plugins", "--enable-exec"); err == nil {
		t.Fatalf("kustomize build of a broken overlay succeeded:\n%s", out)
	}
}
