// Package bootkube tests the bootkube stage script with the real podman and
// the konnectivity-bundle image built from this checkout.
package bootkube

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// taggedProxyImage names its release, so render learns v0.28 from the tag;
// for the tests that render without the stage, or give the stage the
// version, so podman never has to run (or pull) it.
const taggedProxyImage = "quay.io/openshift/origin-apiserver-network-proxy:4.20"

// stage runs konnectivity.sh against root and returns stdout. The proxy
// image is a local v0.28 one whose tag names no release, as the payload's
// image by digest does not: the render stage asks the image which proxy it
// runs. env may name another.
func stage(t *testing.T, root, image string, env []string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(filepath.Join(tooltest.RepoRoot(), "deploy", "bootkube", "konnectivity.sh"), args...)
	cmd.Env = append(append(podmantest.Env(t),
		"HOST_ROOT="+root,
		"KONNECTIVITY_BUNDLE_IMAGE="+image,
		"KONNECTIVITY_IMAGE="+podmantest.ProxyImage(t, proxyversion.V028),
		"OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP=192.0.2.10",
	), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	t.Logf("konnectivity.sh %s:\n%s", strings.Join(args, " "), stderr.String())
	return stdout.String(), stderr.String(), err
}

// scratchRoot is a bootstrap node's root as bootkube.sh finds it: the asset
// directory exists, and a kubeconfig names an API server that is not up.
func scratchRoot(t *testing.T) string {
	root := t.TempDir()
	auth := filepath.Join(root, "opt", "openshift", "auth")
	if err := os.MkdirAll(auth, 0o755); err != nil {
		t.Fatal(err)
	}
	kubeconfig := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`
	if err := os.WriteFile(filepath.Join(auth, "kubeconfig"), []byte(kubeconfig), 0o600); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestStageRenderAndTeardown runs the stage script as bootkube.sh would, with
// the real podman and image, against a scratch root, and checks the result
// with status and check.
func TestStageRenderAndTeardown(t *testing.T) {
	image := podmantest.BundleImage(t)
	self := tooltest.BuildSelf(t, t.TempDir())
	for _, tc := range []struct {
		overlay, flag string
	}{
		{"ipv4", "--config-override-files=/assets/konnectivity-config-override.yaml\n"},
		{"sno", ""},
	} {
		t.Run(tc.overlay, func(t *testing.T) {
			root := scratchRoot(t)
			env := []string{"KONNECTIVITY_OVERLAY=" + tc.overlay}
			out, _, err := stage(t, root, image, env, "render")
			if err != nil {
				t.Fatalf("render stage: %v", err)
			}
			if out != tc.flag {
				t.Errorf("render stage printed %q, want the KAS render flag %q", out, tc.flag)
			}
			marker := filepath.Join(root, "opt", "openshift", "konnectivity.done")
			if _, err := os.Stat(marker); err != nil {
				t.Fatalf("no .done marker: %v", err)
			}
			if tc.overlay == "sno" {
				return
			}
			checkRendered(t, self, root)

			// A restarted bootkube.service: the marker skips the render, the flag is printed again.
			podman := "PODMAN=" + filepath.Join(t.TempDir(), "no-podman")
			if out, _, err := stage(t, root, image, append(env, podman), "render"); err != nil || out != tc.flag {
				t.Errorf("second render stage: %v, printed %q; want no podman run and %q", err, out, tc.flag)
			}

			if _, _, err := stage(t, root, image, env, "teardown"); err != nil {
				t.Fatalf("teardown stage: %v", err)
			}
			gathered := filepath.Join(root, "var", "log", "bootstrap-control-plane", "konnectivity", "status.json")
			if data, err := os.ReadFile(gathered); err != nil || !json.Valid(data) {
				t.Errorf("teardown gathered no status.json for the log bundle: %v", err)
			}
			// The API server is down: usage.json must say so, not be missing.
			var use struct{ KubeAPIServer struct{ Read bool } }
			data, err := os.ReadFile(filepath.Join(filepath.Dir(gathered), "usage.json"))
			if err != nil || json.Unmarshal(data, &use) != nil || use.KubeAPIServer.Read {
				t.Errorf("teardown gathered usage.json %q (%v), want the kube-apiserver side unread", data, err)
			}
			if _, err := os.Stat(filepath.Join(root, "etc", "kubernetes", "manifests", "konnectivity-server-pod.yaml")); !os.IsNotExist(err) {
				t.Errorf("the static pod manifest is still there after teardown: %v", err)
			}
			if _, err := os.Stat(filepath.Join(root, "opt", "openshift", "konnectivity-teardown.done")); err != nil {
				t.Errorf("no teardown .done marker: %v", err)
			}
		})
	}
}

// TestStageAsksTheImage: without KONNECTIVITY_PROXY_VERSION the render
// stage learns the proxy version from the image's own proxy-server and
// renders only the flags that binary has; the variable, when set, wins.
func TestStageAsksTheImage(t *testing.T) {
	image := podmantest.BundleImage(t)
	for _, tc := range []struct {
		name    string
		proxy   *proxyversion.Version
		env     []string
		want    *proxyversion.Version
		bounded bool // --backend-dial-timeout rendered
	}{
		{"v0.28 image", proxyversion.V028, nil, proxyversion.V028, false},
		{"v0.36 image", proxyversion.V036, nil, proxyversion.V036, true},
		{"variable wins", proxyversion.V036, []string{"KONNECTIVITY_PROXY_VERSION=v0.28"}, proxyversion.V028, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := scratchRoot(t)
			env := append([]string{"KONNECTIVITY_IMAGE=" + podmantest.ProxyImage(t, tc.proxy)}, tc.env...)
			if _, stderr, err := stage(t, root, image, env, "render"); err != nil {
				t.Fatalf("render stage: %v\n%s", err, stderr)
			}
			pod, err := os.ReadFile(filepath.Join(root, "etc", "kubernetes", "manifests", "konnectivity-server-pod.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if want := proxyversion.AnnotationProxyVersion + ": " + tc.want.Name; !strings.Contains(string(pod), want) {
				t.Errorf("the server pod does not say %q:\n%s", want, pod)
			}
			if got := strings.Contains(string(pod), "--backend-dial-timeout="); got != tc.bounded {
				t.Errorf("--backend-dial-timeout rendered = %v, want %v for proxy %s", got, tc.bounded, tc.want)
			}
		})
	}
}

// checkRendered: status finds every file as render wrote it (the server is
// not running here), and check passes the rendered bundle with its
// certificates.
func checkRendered(t *testing.T, self, root string) {
	t.Helper()
	t.Setenv("KUBECONFIG", "") // status finds the root's admin kubeconfig, never the developer's
	out, _ := exec.Command(self, "status", "--root", root, "-o", "json").Output()
	var rep struct {
		BootstrapIP string `json:"bootstrapIP"`
		Checks      []struct{ Name, Severity, Detail string }
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("status -o json: %v\n%s", err, out)
	}
	if rep.BootstrapIP != "192.0.2.10" {
		t.Errorf("status: bootstrap IP %q, want 192.0.2.10 (auto, from OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP)", rep.BootstrapIP)
	}
	for _, c := range rep.Checks {
		if (c.Name == "rendered files" || c.Name == "egress selector" || c.Name == "certificates") && c.Severity != "ok" {
			t.Errorf("status %s: %s %s", c.Name, c.Severity, c.Detail)
		}
	}
	var state struct{ Files []struct{ Path string } }
	raw, err := os.ReadFile(filepath.Join(root, "var", "lib", "konnectivity-bundle", "state.json"))
	if err == nil {
		err = json.Unmarshal(raw, &state)
	}
	if err != nil {
		t.Fatalf("state file: %v", err)
	}
	var stream bytes.Buffer
	for _, f := range state.Files {
		if !strings.HasSuffix(f.Path, ".yaml") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		stream.WriteString("---\n")
		stream.Write(data)
	}
	cmd := exec.Command(self, "check", "--cert-dir", filepath.Join(root, "opt", "openshift", "tls", "konnectivity"), "-")
	cmd.Stdin = &stream
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("check of the rendered files: %v\n%s", err, out)
	}
}

// TestStageExplainsPodmanSettings: on a host whose podman defaults cannot
// start a container (this CI sandbox: setting rlimits is not permitted), the
// stage fails naming what it needs from podman and the fix, instead of
// podman's bare runc error. Podman is given an empty containers.conf, so its
// defaults apply.
func TestStageExplainsPodmanSettings(t *testing.T) {
	image := podmantest.BundleImage(t)
	empty := filepath.Join(t.TempDir(), "containers.conf")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	root := scratchRoot(t)
	_, stderr, err := stage(t, root, image, []string{"CONTAINERS_CONF=" + empty}, "render")
	if err == nil {
		t.Skip("skipping: podman's defaults start containers on this host, so there is no failure to explain")
	}
	for _, want := range []string{"podman could not start the container", "no default rlimits, runc and cgroupfs", "CONTAINERS_CONF", "docs/bootkube.md"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the failed stage does not say %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "opt", "openshift", "konnectivity.done")); err == nil {
		t.Error("the failed render stage left its .done marker")
	}
}

// TestStageKeepsAnOverlaysPin: the stage always has the release's image in
// KONNECTIVITY_IMAGE, and an overlay that pins its own (overlays/upi, a
// mirror) must still deploy the pin: the stage passes --keep-pin. The ipv4
// case of TestStageRenderAndTeardown shows the release's image serving an
// overlay that pins none.
func TestStageKeepsAnOverlaysPin(t *testing.T) {
	image := podmantest.BundleImage(t)
	root := scratchRoot(t)
	proxyImage := podmantest.ProxyImage(t, proxyversion.V028)
	if _, _, err := stage(t, root, image, []string{"KONNECTIVITY_OVERLAY=upi"}, "render"); err != nil {
		t.Fatalf("render stage of the upi overlay with KONNECTIVITY_IMAGE=%s: %v", proxyImage, err)
	}
	pod, err := os.ReadFile(filepath.Join(root, "etc", "kubernetes", "manifests", "konnectivity-server-pod.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const pin = "image: mirror.example.com:5000/openshift/apiserver-network-proxy:4.20"
	if !strings.Contains(string(pod), pin) || strings.Contains(string(pod), proxyImage) {
		t.Errorf("the server pod does not deploy the overlay's pin (%s):\n%s", pin, pod)
	}
}
