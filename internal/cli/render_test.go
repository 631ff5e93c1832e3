package cli

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

const (
	hostTestIP    = "192.0.2.10"
	hostTestImage = "quay.io/openshift/origin-apiserver-network-proxy:4.20"
)

// runHostCmd runs the program in-process with an empty environment.
func runHostCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = New(Config{}).Main(append([]string{ProgramName}, args...), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

func hostRenderArgs(root string, extra ...string) []string {
	return append([]string{"render", "--root", root, "--bootstrap-ip", hostTestIP, "--image", hostTestImage}, extra...)
}

func TestRenderCommandExitCodes(t *testing.T) {
	foreignRoot := t.TempDir()
	pod := filepath.Join(foreignRoot, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")
	if err := os.MkdirAll(filepath.Dir(pod), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pod, []byte("not ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fileRoot := t.TempDir() // etc/kubernetes is a file where render needs a directory
	if err := os.MkdirAll(filepath.Join(fileRoot, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fileRoot, "etc/kubernetes"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"ok", hostRenderArgs(t.TempDir()), 0, ""},
		{"file where a directory should be", hostRenderArgs(fileRoot), 3, "is a file where a directory should be (fix: remove or move that file"},
		{"missing root", []string{"render", "--bootstrap-ip", hostTestIP, "--image", hostTestImage}, 2, "--root is required"},
		{"stray argument", hostRenderArgs(t.TempDir(), "ipv4", "extra"), 2, "render takes at most one OVERLAY or DIR, got 2"},
		{"overlay given twice", hostRenderArgs(t.TempDir(), "ipv4", "--overlay", "ipv6"), 2, `the overlay is given twice ("ipv4" and --overlay "ipv6")`},
		{"loopback IP", []string{"render", "--root", t.TempDir(), "--bootstrap-ip", "127.0.0.1", "--image", hostTestImage}, 2, "--bootstrap-ip"},
		{"bad image", []string{"render", "--root", t.TempDir(), "--bootstrap-ip", hostTestIP, "--image", "quay.io/Upper/case:1"}, 2, "--image"},
		{"failing check", hostRenderArgs(t.TempDir(), tooltest.WriteOverlay(t, tooltest.Overlay{Extra: tooltest.MisdialAgents(bundle.DefaultAgentPort)})), 4, "[agent-port-mismatch]"},
		{"failing check the overlay lists itself", hostRenderArgs(t.TempDir(), tooltest.WriteOverlay(t, tooltest.Overlay{
			Transformers: []string{"base/container/check"}, Extra: tooltest.MisdialAgents(bundle.DefaultAgentPort)})), 4, "[agent-port-mismatch]"},
		{"foreign file", hostRenderArgs(foreignRoot), 5, "--force"},
		{"unknown overlay", hostRenderArgs(t.TempDir(), "nosuch"), 3, `OVERLAY: "nosuch" is neither a directory nor an overlay; overlays: dualstack, ipv4, ipv6, sno, upi`},
		{"flag disagrees with the overlay", []string{"render", "upi", "--root", t.TempDir(), "--bootstrap-ip", "192.0.2.99"}, 3,
			"--bootstrap-ip 192.0.2.99 disagrees with overlay upi's spec.bootstrapIP 192.0.2.10"},
		{"overlay gives the IP", []string{"render", "upi", "--root", t.TempDir()}, 0, ""},
		{"a disabled bundle needs no image or address", []string{"render", "sno", "--root", t.TempDir()}, 0, ""},
		{"no IP anywhere", []string{"render", "--root", t.TempDir(), "--image", hostTestImage}, 2, "--bootstrap-ip was not given, and overlay ipv4 sets no spec.bootstrapIP"},
		{"placeholder image", []string{"render", "--root", t.TempDir(), "--bootstrap-ip", hostTestIP, "--proxy-version", "v0.36"}, 2,
			"--image was not given, and DaemonSet konnectivity-agent of overlay ipv4 still uses the placeholder image"},
		{"bad key size", hostRenderArgs(t.TempDir(), "--key-algorithm", "rsa", "--key-size", "1024"), 2, "--key-size: 1024"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runHostCmd(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr does not mention %q:\n%s", tc.stderr, stderr)
			}
		})
	}
}

func TestRenderCommandOutput(t *testing.T) {
	root := t.TempDir()
	code, out, _ := runHostCmd(t, hostRenderArgs(root, "--dry-run")...)
	if code != 0 || !strings.Contains(out, "dry run, nothing written") || !strings.Contains(out, "create    "+root) {
		t.Errorf("dry run: exit %d\n%s", code, out)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("dry run wrote %d entries", len(entries))
	}

	code, out, _ = runHostCmd(t, hostRenderArgs(root)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 14 || !strings.HasPrefix(lines[13], "rendered 13 files") {
		t.Errorf("fresh render: exit %d, %d lines:\n%s", code, len(lines), out)
	}

	code, out, _ = runHostCmd(t, hostRenderArgs(root)...)
	if code != 0 || !strings.Contains(out, "up to date") {
		t.Errorf("re-run: exit %d\n%s", code, out)
	}

	code, out, _ = runHostCmd(t, hostRenderArgs(root, "-q")...)
	if code != 0 || out != "" {
		t.Errorf("-q printed %q (exit %d)", out, code)
	}
}

func TestRenderCommandMakesRSACertificates(t *testing.T) {
	root := t.TempDir()
	if code, _, stderr := runHostCmd(t, hostRenderArgs(root, "--key-algorithm", "rsa", "--key-size", "3072")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, name := range []string{"ca", "server", "agent"} {
		out, err := exec.Command("openssl", "x509", "-noout", "-text", "-in", filepath.Join(root, "opt/openshift/tls/konnectivity", name+".crt")).CombinedOutput()
		if err != nil {
			t.Fatalf("openssl: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "rsaEncryption") || !strings.Contains(string(out), "(3072 bit)") {
			t.Errorf("%s.crt is not RSA 3072:\n%s", name, out)
		}
	}
	// The default again replaces them, saying why.
	code, out, _ := runHostCmd(t, hostRenderArgs(root)...)
	if code != 0 || !strings.Contains(out, "key algorithm changed from RSA 3072 to ECDSA P-256") {
		t.Errorf("back to ECDSA: exit %d\n%s", code, out)
	}
}

func TestRenderCommandDisabledOverlay(t *testing.T) {
	root := t.TempDir()
	code, out, _ := runHostCmd(t, hostRenderArgs(root, "sno")...)
	if code != 0 || !strings.Contains(out, "Konnectivity is disabled for bootstrap-in-place") {
		t.Errorf("sno: exit %d\n%s", code, out)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("sno wrote %d entries", len(entries))
	}
}

// TestRenderOverlayFlagIsTheArgument: the hidden --overlay, kept for
// scripts, renders what the argument renders: the same files, the same
// report (certificates and the root's id aside, which are new each run).
var (
	ownerMark = regexp.MustCompile(`konnectivity-bundle.io/owner: .*`)
	byteCount = regexp.MustCompile(`\(\d+ bytes\)`)
)

func TestRenderOverlayFlagIsTheArgument(t *testing.T) {
	render := func(args ...string) (string, map[string]string) {
		root := t.TempDir()
		code, out, stderr := runHostCmd(t, append([]string{"render", "--root", root}, args...)...)
		if code != 0 {
			t.Fatalf("render %q: exit %d\n%s", args, code, stderr)
		}
		files := map[string]string{}
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			data, err := os.ReadFile(path)
			if strings.Contains(rel, "tls/") || strings.Contains(rel, "secret") || strings.HasSuffix(rel, "state.json") {
				data = nil // new keys and a new root id each run: compared by name only
			}
			files[rel] = ownerMark.ReplaceAllString(string(data), "OWNER")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return byteCount.ReplaceAllString(strings.ReplaceAll(out, root, "ROOT"), "(N bytes)"), files
	}
	argOut, argFiles := render("upi")
	flagOut, flagFiles := render("--overlay", "upi")
	if argOut != flagOut {
		t.Errorf("render upi printed\n%s\nrender --overlay upi printed\n%s", argOut, flagOut)
	}
	if len(argFiles) == 0 || !reflect.DeepEqual(argFiles, flagFiles) {
		t.Errorf("render upi and render --overlay upi wrote different files:\n%v\n%v", slices.Sorted(maps.Keys(argFiles)), slices.Sorted(maps.Keys(flagFiles)))
	}
}

func TestRenderAndTeardownHelpDocumentExitCodes(t *testing.T) {
	for _, cmd := range []string{"render", "teardown"} {
		code, out, _ := runHostCmd(t, cmd, "--help")
		if code != 0 || !strings.Contains(out, "Exit codes:") {
			t.Errorf("%s --help: exit %d\n%s", cmd, code, out)
		}
	}
}

// TestRenderAutoSaysWhereTheIPCameFrom: an address nobody typed is printed
// with its origin, here the installer's override variable, and a typed one
// without any.
func TestRenderAutoSaysWhereTheIPCameFrom(t *testing.T) {
	env := map[string]string{"OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP": "192.0.2.44"}
	var out, errb bytes.Buffer
	args := []string{ProgramName, "render", "--root", t.TempDir(), "--bootstrap-ip", "auto", "--image", goldenImage}
	code := New(Config{}).Main(args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }})
	if want := "bootstrap IP 192.0.2.44 (auto: from OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP)"; code != 0 || !strings.Contains(out.String(), want) {
		t.Errorf("exit %d, want a summary with %q:\n%s%s", code, want, out.String(), errb.String())
	}
	_, typed, _ := runHostCmd(t, hostRenderArgs(t.TempDir())...)
	if strings.Contains(typed, "auto") {
		t.Errorf("a render with a typed address mentions auto:\n%s", typed)
	}
}
