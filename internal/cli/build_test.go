package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestBuildCommand(t *testing.T) {
	want, err := os.ReadFile(golden("ipv6"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		args      []string
		code      int
		stdout    string // exact, when set
		stderrHas string
		stdoutHas string
	}{
		{"overlay by name", []string{"build", "--bootstrap-ip", "2001:db8::10", "--image", goldenImage, "ipv6"}, 0, string(want), "", ""},
		{"default overlay needs an IP", []string{"build"}, 2, "", "--bootstrap-ip was not given, and overlay ipv4 sets no spec.bootstrapIP", ""},
		{"wrong family names the overlay to build", []string{"build", "--bootstrap-ip", "2001:db8::10"}, 2, "", "fix: build the ipv6 overlay (or dualstack for both families), or give an IPv4 address", ""},
		{"unknown overlay lists overlays", []string{"build", "nope"}, 1, "", "overlays: dualstack, ipv4, ipv6, sno, upi", ""},
		{"too many arguments", []string{"build", "ipv4", "ipv6"}, 2, "", "at most one OVERLAY or DIR", ""},
		{"unknown flag", []string{"build", "--bootstrap", "x"}, 2, "", "unknown flag: --bootstrap", ""},
		{"flag disagreeing with the overlay's spec.bootstrapIP", []string{"build", "--bootstrap-ip", "192.0.2.20", "upi"}, 1, "", "--bootstrap-ip 192.0.2.20 disagrees with overlay upi's spec.bootstrapIP 192.0.2.10", ""},
		{"flag agreeing with the overlay's spec.bootstrapIP", []string{"build", "--bootstrap-ip", "192.0.2.10", "upi"}, 0, "", "", "--proxy-server-host=192.0.2.10"},
		{"sno builds nothing", []string{"build", "sno"}, 0, "", "", ""},
		{"help", []string{"build", "--help"}, 0, "", "", "kustomize build --enable-alpha-plugins --enable-exec"},
		{"version", []string{"version"}, 0, "", "", "konnectivity-bundle "},
		{"overview", []string{"--help"}, 0, "", "", "Commands:"},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if tc.stdout != "" && stdout != tc.stdout {
				t.Errorf("stdout differs from the golden file:\n%s", stdout)
			}
			if tc.name == "sno builds nothing" && stdout != "" {
				t.Errorf("sno printed a bundle:\n%s", stdout)
			}
			if !strings.Contains(stderr, tc.stderrHas) || !strings.Contains(stdout, tc.stdoutHas) {
				t.Errorf("stdout %q / stderr %q lack %q / %q", stdout, stderr, tc.stdoutHas, tc.stderrHas)
			}
		})
	}
}

const resourceList = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
functionConfig:
  apiVersion: bundle.konnectivity.io/v1alpha1
  kind: KonnectivityBundle
  metadata: {name: konnectivity}
  spec: {bootstrapIP: %s, proxyVersion: v0.36}
`

func TestFnCommand(t *testing.T) {
	code, stdout, stderr := runCLI(t, strings.Replace(resourceList, "%s", "192.0.2.10", 1), "fn")
	if code != 0 || len(items(t, stdout, true)) != 5 {
		t.Fatalf("exit %d, want 0 and 5 items; stderr %s\nstdout:\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = runCLI(t, strings.Replace(resourceList, "%s", "127.0.0.1", 1), "fn")
	if code != 1 || !strings.Contains(stdout, "severity: error") || !strings.Contains(stdout, "path: spec.bootstrapIP") || !strings.Contains(stderr, "not reachable from cluster nodes") {
		t.Fatalf("a bad config must give exit 1, an error result with its field path and a message; got %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestLegacyPluginMode runs Main as kustomize runs a legacy exec plugin: the
// binary is invoked under the kind's name with the config file path.
func TestLegacyPluginMode(t *testing.T) {
	config := filepath.Join(t.TempDir(), "config.yaml")
	body := "apiVersion: bundle.konnectivity.io/v1alpha1\nkind: KonnectivityBundle\nmetadata: {name: k}\nspec: {bootstrapIP: 192.0.2.10, proxyVersion: v0.28}\n"
	if err := os.WriteFile(config, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	io := IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	if code := New(Config{}).Main([]string{"/plugins/bundle.konnectivity.io/v1alpha1/konnectivitybundle/KonnectivityBundle", config}, io); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.Contains(out.String(), "ResourceList") || len(items(t, out.String(), false)) != 5 {
		t.Errorf("legacy output must be a plain stream of the 5 generated objects:\n%s", out.String())
	}
	// A validator must echo its input: kustomize replaces resources with it.
	checkConfig := filepath.Join(t.TempDir(), "check.yaml")
	if err := os.WriteFile(checkConfig, []byte("apiVersion: bundle.konnectivity.io/v1alpha1\nkind: KonnectivityCheck\nmetadata: {name: c}\nspec: {allowEmpty: true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	input := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unrelated\n"
	out.Reset()
	io.Stdin = strings.NewReader(input)
	if code := New(Config{}).Main([]string{"KonnectivityCheck", checkConfig}, io); code != 0 || out.String() != input {
		t.Errorf("validator exit %d, output %q; want 0 and the input unchanged", code, out.String())
	}
}

// items parses a ResourceList's items, or a plain stream.
func items(t *testing.T, out string, resourceList bool) []*yaml.RNode {
	t.Helper()
	rw := &kio.ByteReader{Reader: strings.NewReader(out), OmitReaderAnnotations: true}
	nodes, err := rw.Read()
	if err != nil {
		t.Fatalf("parsing output: %v\n%s", err, out)
	}
	if resourceList && rw.FunctionConfig == nil {
		t.Fatalf("output is not a ResourceList:\n%s", out)
	}
	return nodes
}

// TestAFileOfAnOverlaysName: a file in the current directory named like
// an embedded overlay is not taken for the overlay, nor the overlay for
// it: build and render refuse it, with the one fix (move it), each with
// its documented code.
func TestAFileOfAnOverlaysName(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("ipv6", []byte("not a kustomization\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const says = `"ipv6" is a file here and the name of an embedded overlay`
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"build", "ipv6", "--bootstrap-ip", "2001:db8::10", "--image", goldenImage}, exitFailure},
		{hostRenderArgs(t.TempDir(), "--dry-run", "ipv6"), exitBadInput},
	} {
		code, stdout, stderr := runCLI(t, "", tc.args...)
		if code != tc.code || stdout != "" || !strings.Contains(stderr, says) || strings.Count(stderr, "fix:") != 1 || !strings.Contains(stderr, "move the file ./ipv6 away") {
			t.Errorf("%s: exit %d (want %d), stdout %d bytes, stderr (want %q and one fix, to move the file):\n%s", tc.args[0], code, tc.code, len(stdout), says, stderr)
		}
	}
}
