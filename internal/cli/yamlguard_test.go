package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kustomizationDir writes a kustomization listing one resource file.
func kustomizationDir(t *testing.T, resource []byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string][]byte{"kustomization.yaml": []byte("resources:\n- res.yaml\n"), "res.yaml": resource} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestHostileYAMLEveryCommand: every way YAML enters the CLI (file, stdin,
// kustomization directory, ResourceList, render --overlay DIR) refuses an
// alias bomb and a duplicate key, naming the limit or the key, with the
// command's own exit code for bad input.
func TestHostileYAMLEveryCommand(t *testing.T) {
	bomb, err := os.ReadFile("../intake/yamlguard/testdata/alias-bomb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dup := []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  name: d\ndata: {k: v}\n")
	const bombMsg, dupMsg = "aliases expand to more than the alias limit of 1000000 nodes", `metadata: key "name" appears twice`
	inputs := []struct {
		name string
		data []byte
		msg  string
	}{{"alias bomb", bomb, bombMsg}, {"duplicate key", dup, dupMsg}}
	for _, in := range inputs {
		dir := kustomizationDir(t, in.data)
		file := filepath.Join(dir, "res.yaml")
		fnInput := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- " + strings.ReplaceAll(string(in.data), "\n", "\n  ") +
			"\nfunctionConfig: {apiVersion: bundle.konnectivity.io/v1alpha1, kind: KonnectivityBundle, metadata: {name: b}, spec: {bootstrapIP: 192.0.2.10}}\n"
		cases := []struct {
			name  string
			stdin string
			args  []string
			code  int
		}{
			{"build DIR", "", []string{"build", dir}, 1},
			{"check DIR", "", []string{"check", dir}, 2},
			{"check FILE", "", []string{"check", file}, 2},
			{"check stdin", string(in.data), []string{"check", "-"}, 2},
			{"ports DIR", "", []string{"ports", dir}, 1},
			{"ports FILE", "", []string{"ports", file}, 1},
			{"diff DIR FILE", "", []string{"diff", dir, file}, 2},
			{"diff stdin", string(in.data), []string{"diff", "-", "ipv4"}, 2},
			{"fn", fnInput, []string{"fn"}, 1},
			{"render --overlay DIR", "", hostRenderArgs(t.TempDir(), "--overlay", dir), 3},
		}
		for _, tc := range cases {
			t.Run(in.name+"/"+tc.name, func(t *testing.T) {
				code, _, stderr := runCLI(t, tc.stdin, tc.args...)
				if code != tc.code || !strings.Contains(stderr, in.msg) {
					t.Fatalf("exit %d, want %d with %q; stderr:\n%s", code, tc.code, in.msg, stderr)
				}
			})
		}
	}
}

// TestDuplicateKeyInBundleConfig: a duplicate key in the generator's own
// config fails the build instead of one of the two values winning silently.
func TestDuplicateKeyInBundleConfig(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"kustomization.yaml": "generators:\n- config.yaml\n",
		"config.yaml": "apiVersion: bundle.konnectivity.io/v1alpha1\nkind: KonnectivityBundle\nmetadata: {name: b}\n" +
			"spec:\n  bootstrapIP: 192.0.2.10\n  server:\n    agentPort: 8091\n    agentPort: 9091\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runCLI(t, "", "build", dir)
	if code != 1 || !strings.Contains(stderr, `config.yaml: document 1 at spec.server: key "agentPort" appears twice (lines 7 and 8)`) {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
}

// TestRenderBadOverlayConfigIsBadInput: a generator config the function
// refuses (here a certDir element longer than a file name can be, which
// render once reported as a damaged certificate file) is bad input, exit 3,
// naming the field.
func TestRenderBadOverlayConfigIsBadInput(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"kustomization.yaml": "generators:\n- config.yaml\n",
		"config.yaml": "apiVersion: bundle.konnectivity.io/v1alpha1\nkind: KonnectivityBundle\nmetadata: {name: b}\n" +
			"spec:\n  paths:\n    certDir: /opt/openshift/" + strings.Repeat("k", 300) + "\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runCLI(t, "", hostRenderArgs(t.TempDir(), "--overlay", dir)...)
	if code != 3 || !strings.Contains(stderr, "spec.paths.certDir: the element") || !strings.Contains(stderr, "longer than the 255 a file name can have") {
		t.Fatalf("exit %d, want 3 naming spec.paths.certDir; stderr:\n%s", code, stderr)
	}
}

// TestLargeAliasFreeInputNamesTheSizeLimit: a large stream without aliases
// is refused for its size (the input cap), never blamed on aliases.
func TestLargeAliasFreeInputNamesTheSizeLimit(t *testing.T) {
	item := "- {name: n, value: v}\n"
	big := strings.Repeat(item, (8<<20)/len(item)+1)
	code, _, stderr := runCLI(t, big, "check", "-")
	if code != 2 || !strings.Contains(stderr, "stdin is larger than the 8 MiB cap for a bundle stream") || strings.Contains(stderr, "alias") {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
}

// TestInlinePatchDuplicateKey: a duplicate key in an inline patch of a
// user overlay is refused before kustomize keeps the first of the two,
// naming the kustomization, the patch and the key: build exits 1, render
// 3 (bad input), and nothing is written.
func TestInlinePatchDuplicateKey(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"kustomization.yaml": "generators:\n- config.yaml\npatches:\n- target:\n    kind: DaemonSet\n  patch: |-\n" +
			"    apiVersion: apps/v1\n    kind: DaemonSet\n    metadata:\n      name: konnectivity-agent\n" +
			"    spec:\n      template:\n        spec:\n          hostNetwork: true\n          hostNetwork: false\n",
		"config.yaml": "apiVersion: bundle.konnectivity.io/v1alpha1\nkind: KonnectivityBundle\nmetadata: {name: b}\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := filepath.Join(dir, "kustomization.yaml") + `: patches[0] (inline patch, target kind=DaemonSet): document 1 at spec.template.spec: key "hostNetwork" appears twice (lines 14 and 15)`
	root := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"build", "--bootstrap-ip", hostTestIP, "--image", hostTestImage, dir}, 1},
		{hostRenderArgs(root, "--overlay", dir), 3},
	} {
		code, _, stderr := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, want %d with %q; stderr:\n%s", tc.args[0], code, tc.code, want, stderr)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Fatalf("render wrote under --root: %v", entries)
	}
}
