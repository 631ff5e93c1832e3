package bootkube

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failingPodman stands in for a podman that ran no container: it prints
// stderr as podman 4.3 does and exits with code (125: podman's own error).
func failingPodman(t *testing.T, stderr string, code int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "podman")
	script := fmt.Sprintf("#!/bin/sh\ncat >&2 <<'END'\n%s\nEND\nexit %d\n", stderr, code)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStageTellsAPullFromPodman: when podman ran no container, the stage
// names the cause from podman's own error: an image it could not pull or
// find (podman works; the reference, the registry or the credentials do
// not) is told apart from a podman that cannot start containers here, and
// each names the image it was running, for the bundle image and for the
// proxy image the stage asks for its version. The messages are podman
// 4.3.1's.
func TestStageTellsAPullFromPodman(t *testing.T) {
	const (
		bundleImage = "quay.io/example/konnectivity-bundle:v1"
		proxyImage  = "quay.io/example/apiserver-network-proxy@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		pull        = "podman could not pull the image "
		start       = "podman could not start the container"
	)
	for _, tc := range []struct {
		name, stderr string
		askImage     bool   // no KONNECTIVITY_PROXY_VERSION: the stage runs the proxy image first
		want, not    string // what the log says, and what it must not
		image        string
	}{
		{"registry unreachable", `Error: initializing source docker://` + bundleImage + `: pinging container registry quay.io: Get "https://quay.io/v2/": dial tcp: lookup quay.io: no such host`, false, pull, start, bundleImage},
		{"manifest unknown", `Error: initializing source docker://` + bundleImage + `: reading manifest v1 in quay.io/example/konnectivity-bundle: manifest unknown`, false, pull, start, bundleImage},
		{"not pulled, --pull=never", `Error: ` + bundleImage + `: image not known`, false, pull, start, bundleImage},
		{"no credentials", `Error: initializing source docker://` + bundleImage + `: reading manifest v1 in quay.io/example/konnectivity-bundle: unauthorized: access to the requested resource is not authorized`, false, pull, start, bundleImage},
		{"proxy image not pulled", `Error: initializing source docker://` + proxyImage + `: reading manifest sha256:0123 in quay.io/example/apiserver-network-proxy: manifest unknown`, true, pull, start, proxyImage},
		{"rlimits", `Error: OCI runtime error: crun: setrlimit RLIMIT_NOFILE: Operation not permitted`, false, "no default rlimits, runc and cgroupfs", pull, bundleImage},
		{"podman broken otherwise", `Error: cannot open the runtime's socket`, false, "check that ", pull, bundleImage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := []string{"PODMAN=" + failingPodman(t, tc.stderr, 125), "HOST_ROOT=" + scratchRoot(t),
				"KONNECTIVITY_BUNDLE_IMAGE=" + bundleImage, "KONNECTIVITY_IMAGE=" + proxyImage, "OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP=192.0.2.10"}
			if !tc.askImage {
				env = append(env, "KONNECTIVITY_PROXY_VERSION=v0.28")
			}
			_, stderr, err := runStage(env, "render")
			t.Logf("render stage:\n%s", stderr)
			if err == nil {
				t.Fatal("the render stage succeeded with a podman that ran nothing")
			}
			if !strings.Contains(stderr, tc.want) || strings.Contains(stderr, tc.not) {
				t.Errorf("the log does not say %q, or says %q", tc.want, tc.not)
			}
			if tc.want == pull && !strings.Contains(stderr, pull+tc.image) {
				t.Errorf("the log does not name the image it could not pull, %s", tc.image)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Error("the log does not pass on podman's own error")
			}
		})
	}
}
