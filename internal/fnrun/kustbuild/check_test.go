package kustbuild

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// brokenOverlay writes an overlay that adds --server-cert to the UDS server,
// the enhancement's flag-table mistake that the real proxy-server rejects,
// with the generator config and check of one wiring (paths under base/).
func brokenOverlay(t *testing.T, generator, check string) string {
	return tooltest.WriteOverlay(t, tooltest.Overlay{
		Config:       "base/" + generator,
		Transformers: []string{"base/" + check},
		// Appending to a list of strings has no strategic-merge or
		// name-based form in kustomize, so the JSON patch first tests that
		// it appends to the server container: a pod with its containers in
		// another order fails the build loudly instead of patching the
		// wrong one.
		Extra: `patches:
- target: {kind: Pod, name: konnectivity-server}
  patch: |-
    - op: test
      path: /spec/containers/0/name
      value: konnectivity-server
    - op: add
      path: /spec/containers/0/args/-
      value: --server-cert=/etc/konnectivity/server.crt
`,
	})
}

// TestWiredCheckFailsTheBuild: the check listed under transformers: fails a
// bundle an overlay broke, in-process and through the real kustomize CLI.
func TestWiredCheckFailsTheBuild(t *testing.T) {
	dir := brokenOverlay(t, "function", "check")
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

// TestContainerCheckFailsTheBuild: the check of the container wiring runs
// from the image too, and fails the kustomize build of a broken overlay.
func TestContainerCheckFailsTheBuild(t *testing.T) {
	cli := newContainerKustomizeCLI(t)
	dir := brokenOverlay(t, "container/config", "container/check")
	out, err := cli.build(t, dir, inputs(t, "ipv4"), "--enable-alpha-plugins")
	if err == nil || !strings.Contains(err.Error(), "--server-cert") {
		t.Fatalf("kustomize build of a broken overlay through the image: %v, want the check's error naming --server-cert\n%s", err, out)
	}
}

// TestDockerAPIServiceLosesFailures pins the trap docs/kustomize.md warns about: a
// docker CLI talking to podman 4.3's Docker API service (`podman system
// service`, DOCKER_HOST) gets exit code 0 from `docker run --rm` whatever the
// container returned (podman issue 18889), so kustomize prints the broken
// bundle and exits 0 although the check failed.
func TestDockerAPIServiceLosesFailures(t *testing.T) {
	const docker = "/usr/local/bin/docker"
	if _, err := os.Stat(docker); err != nil {
		t.Skipf("skipping: no docker CLI at %s to run against podman's Docker API service", docker)
	}
	cli := newContainerKustomizeCLI(t)
	cli.path = filepath.Dir(docker) + ":/usr/bin:/bin"
	cli.extraEnv = append(cli.extraEnv, "DOCKER_HOST="+podmantest.DockerHost(t, podmantest.WiringTag))
	dir := brokenOverlay(t, "container/config", "container/check")
	out, err := cli.build(t, dir, inputs(t, "ipv4"), "--enable-alpha-plugins")
	if err != nil {
		t.Fatalf("kustomize now fails through the Docker API service (%v): the podman bug is fixed; update docs/kustomize.md and this test", err)
	}
	if !strings.Contains(string(out), "--server-cert") {
		t.Fatalf("kustomize did not print the broken bundle:\n%s", out)
	}
}
