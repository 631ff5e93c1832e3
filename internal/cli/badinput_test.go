package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// shippedTree copies base/ and overlays/ as they ship (the container
// wiring, which the in-process build runs itself) into a temporary
// directory, so a test can break a copy of an overlay users copy.
func shippedTree(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for _, d := range []string{"base", "overlays"} {
		if err := os.CopyFS(filepath.Join(dst, d), os.DirFS(filepath.Join(tooltest.RepoRoot(), d))); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// badInputCase is one way render exits 3: args after "render --root ROOT",
// and the overlay label the message may name once ("" when none is given).
type badInputCase struct {
	name    string
	args    []string
	root    string // "" for a fresh empty root
	overlay string
	says    string
}

// badInputCases are render's bad-input causes, one of each step that finds
// one: the overlay's name, the YAML guard, the generator, the overlay's
// own check transformer (a field the generator config or a patch
// misspells, as a copy of overlays/upi would), the build, a flag that
// disagrees with the overlay, and the host under --root.
func badInputCases(t *testing.T) []badInputCase {
	upi := func(file, from, to string) string {
		dir := filepath.Join(shippedTree(t), "overlays", "upi")
		tooltest.EditFile(t, filepath.Join(dir, file), from, to)
		return dir
	}
	typoConfig := upi("config/config-patch.yaml", "agentPort: 9091", "agentPorr: 9091")
	badProfile := upi("config/config-patch.yaml", "  server:\n", "  tlsSecurityProfile:\n    type: Custom\n    custom: {minTLSVersion: VersionTLS12, ciphers: [ECDHE-RSA-AES129-GCM-SHA256]}\n  server:\n")
	typoPatch := upi("kustomization.yaml", "nodeSelector:", "nodeSelectr:")
	checkTree := shippedTree(t)
	tooltest.EditFile(t, filepath.Join(checkTree, "base/check/konnectivitycheck.yaml"), "kind: KonnectivityCheck\n", "kind: KonnectivityCheck\nspec:\n  allowEmpti: true\n")
	typoCheck := filepath.Join(checkTree, "overlays", "upi")
	patchTypo := tooltest.WriteOverlay(t, tooltest.Overlay{Extra: "patches:\n- target: {kind: DaemonSet}\n  patch: |-\n    apiVersion: apps/v1\n    kind: DaemonSet\n    metadata: {name: konnectivity-agent}\n    spec: {template: {spec: {nodeSelecter: {a: b}}}}\n"})
	noTarget := tooltest.WriteOverlay(t, tooltest.Overlay{Extra: "patches:\n- patch: |-\n    apiVersion: apps/v1\n    kind: DaemonSet\n    metadata: {name: nosuch, namespace: openshift-bootstrap-konnectivity}\n    spec: {minReadySeconds: 1}\n"})
	dupKey := tooltest.WriteOverlay(t, tooltest.Overlay{Extra: "namePrefix: a-\nnamePrefix: b-\n"})

	zeroLink := t.TempDir() // a resource that is a link to /dev/zero
	if err := os.WriteFile(filepath.Join(zeroLink, "kustomization.yaml"), []byte("resources: [zero.yaml]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(zeroLink, "zero.yaml")); err != nil {
		t.Fatal(err)
	}

	fileRoot := t.TempDir()
	if err := os.MkdirAll(filepath.Join(fileRoot, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fileRoot, "etc/kubernetes"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linkRoot := t.TempDir()
	if err := os.MkdirAll(filepath.Join(linkRoot, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(linkRoot, "etc/kubernetes")); err != nil {
		t.Fatal(err)
	}
	apiserver := "apiVersion: config.openshift.io/v1\nkind: APIServer\nmetadata: {name: cluster}\nspec:\n  tlsSecurityProfile: "
	badManifest, twoManifests := t.TempDir(), t.TempDir()
	tooltest.WriteTree(t, badManifest, map[string]string{"opt/openshift/manifests/apiserver.yaml": apiserver + "{type: Strict}\n"})
	tooltest.WriteTree(t, twoManifests, map[string]string{"opt/openshift/manifests/a.yaml": apiserver + "{type: Modern}\n", "opt/openshift/openshift/b.yaml": apiserver + "{type: Old}\n"})
	damaged := t.TempDir()
	if code, _, stderr := runHostCmd(t, hostRenderArgs(damaged)...); code != 0 {
		t.Fatalf("first render: exit %d\n%s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(damaged, "opt/openshift/tls/konnectivity/server.crt"), []byte("-----BEGIN CERTIFICATE-----\ntrunc"), 0o600); err != nil {
		t.Fatal(err)
	}

	ip, image := []string{"--bootstrap-ip", hostTestIP}, []string{"--image", hostTestImage}
	with := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	return []badInputCase{
		{"unknown overlay", with(ip, image, []string{"--overlay", "nosuch"}), "", "nosuch", `"nosuch" is neither a directory nor an overlay`},
		{"generator config misspelled (upi copy)", with(ip, []string{"--overlay", typoConfig}), "", typoConfig, `spec.server.agentPorr: unknown field`},
		{"patch misspelled, found by the overlay's check (upi copy)", with(ip, []string{"--overlay", typoPatch}), "", typoPatch, `spec.template.spec.nodeSelectr: unknown field`},
		{"a cipher name Go does not know (upi copy)", with(ip, []string{"--overlay", badProfile}), "", badProfile, `spec.tlsSecurityProfile.custom.ciphers[0]: "ECDHE-RSA-AES129-GCM-SHA256" is not a cipher name`},
		{"check config misspelled (upi copy)", with(ip, []string{"--overlay", typoCheck}), "", typoCheck, `spec.allowEmpti: unknown field`},
		{"patch misspelled, found by the build", with(ip, image, []string{"--overlay", patchTypo}), "", patchTypo, `spec.template.spec.nodeSelecter: unknown field`},
		{"patch without its target", with(ip, image, []string{"--overlay", noTarget}), "", noTarget, `which is not among its objects`},
		{"YAML the guard refuses", with(ip, image, []string{"--overlay", dupKey}), "", dupKey, `"namePrefix" appears twice`},
		{"flag disagrees with the overlay", []string{"--overlay", "upi", "--bootstrap-ip", "192.0.2.99"}, "", "overlay upi", "disagrees with overlay upi's spec.bootstrapIP"},
		{"image over the overlay's pin", []string{"--overlay", "upi", "--image", hostTestImage}, "", "overlay upi", "--override-pin"},
		{"a resource linked to /dev/zero", with(ip, image, []string{zeroLink}), "", zeroLink, "zero.yaml resolves outside the kustomization's directory"},
		{"a file where a directory goes", with(ip, image), fileRoot, "", "is a file where a directory should be"},
		{"a link under --root", with(ip, image), linkRoot, "", "never follows a link"},
		{"the install's APIServer manifest with an unknown profile type", with(ip, image), badManifest, "", `/opt/openshift/manifests/apiserver.yaml: spec.tlsSecurityProfile.type: unknown profile type "Strict"`},
		{"two APIServer manifests that disagree", with(ip, image), twoManifests, "", "and so does /opt/openshift/manifests/a.yaml, differently (Modern there, Old here)"},
		{"a damaged certificate", with(ip, image), damaged, "", "server.crt"},
	}
}

// TestRenderBadInputNamesOneFix: every way render exits 3 names the cause
// with exactly one fix, and names the overlay at most once: no wrapping
// layer repeats the overlay or adds a second, generic fix.
func TestRenderBadInputNamesOneFix(t *testing.T) {
	for _, tc := range badInputCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			root := tc.root
			if root == "" {
				root = t.TempDir()
			}
			code, _, stderr := runHostCmd(t, append([]string{"render", "--root", root}, tc.args...)...)
			if code != exitBadInput {
				t.Errorf("exit %d, want %d (bad input)", code, exitBadInput)
			}
			if !strings.Contains(stderr, tc.says) {
				t.Errorf("the message does not say %q", tc.says)
			}
			if n := strings.Count(stderr, "fix:"); n != 1 {
				t.Errorf("the message has %d fixes, want one", n)
			}
			if tc.overlay != "" {
				// a file's path inside the overlay names the file, not the overlay again
				if n := strings.Count(stderr, tc.overlay) - strings.Count(stderr, tc.overlay+"/"); n > 1 {
					t.Errorf("the message names %s %d times", tc.overlay, n)
				}
			}
			if strings.Contains(stderr, "--overlay") && !strings.Contains(strings.Join(tc.args, " "), "--overlay") {
				t.Error("the message blames --overlay, which was not given")
			}
			if t.Failed() {
				t.Logf("stderr:\n%s", stderr)
			}
		})
	}
}
