package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
)

const checkTestdata = "../../functions/check/testdata"

func runCheckCmd(t *testing.T, stdin string, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	io := IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }}
	code := New(Config{}).Main(append([]string{ProgramName, "check"}, args...), io)
	return code, out.String(), errb.String()
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckCommand(t *testing.T) {
	goodBytes, err := os.ReadFile(filepath.Join(checkTestdata, "bundle/good.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	good := string(goodBytes)
	bad := strings.Replace(good, "--server-port=0", "--server-port=8091", 1)
	noCA := strings.Replace(good, "\n    - --cluster-ca-cert=/etc/konnectivity/ca.crt", "", 1)
	goodFile, badFile := writeTemp(t, "good.yaml", good), writeTemp(t, "bad.yaml", bad)
	// cat a.yaml b.yaml of two files without a leading '---'.
	joined := strings.Replace(good, "\n---\n", "\n", 1)
	joinedFile := writeTemp(t, "joined.yaml", joined)
	tests := []struct {
		name       string
		stdin      string
		args       []string
		wantCode   int
		wantStdout string // substring; "" = stdout must be empty
		wantStderr string // substring
	}{
		{name: "good file", args: []string{goodFile}, wantCode: 0, wantStdout: "ok: checked 6 object(s) of " + goodFile + " (Pod kube-system/konnectivity-server (server), "},
		{name: "good file with certificates", args: []string{"--cert-dir", filepath.Join(checkTestdata, "certs/good"), goodFile}, wantCode: 0,
			wantStdout: "Namespace openshift-bootstrap-konnectivity, certificates): 0 error(s), 0 warning(s)\n"},
		{name: "bad file", args: []string{badFile}, wantCode: 1,
			wantStdout: "error: [server-port-with-uds] Pod kube-system/konnectivity-server spec.containers[0].args[4]: --server-port is 8091", wantStderr: "2 error(s), 0 warning(s)"},
		{name: "bad stdin", stdin: bad, args: []string{"-"}, wantCode: 1, wantStdout: "server port should be set to 0"},
		{name: "stdin by default", stdin: bad, wantCode: 1, wantStdout: "server port should be set to 0"},
		{name: "wrong SAN", args: []string{"--cert-dir", filepath.Join(checkTestdata, "certs/wrong-san"), goodFile}, wantCode: 1, wantStdout: "agents dial 192.0.2.10"},
		{name: "missing cluster CA", stdin: noCA, wantCode: 1, wantStdout: "error: [cluster-ca-cert-missing] Pod kube-system/konnectivity-server spec.containers[0].args: --cluster-ca-cert"},
		{name: "missing cluster CA allowed", stdin: noCA, args: []string{"--allow-missing-cluster-ca"}, wantCode: 0, wantStdout: "warning: [cluster-ca-cert-missing] Pod"},
		{name: "empty build", stdin: "", wantCode: 1, wantStdout: "--enable-exec"},
		{name: "empty build allowed", stdin: "", args: []string{"--allow-empty"}, wantCode: 0, wantStdout: "ok: checked 0 object(s) of standard input (no object of the bundle)"},
		{name: "unknown output", args: []string{"--output", "yaml", goodFile}, wantCode: 2, wantStderr: `invalid argument "yaml" for "-o, --output" flag: use one of text, json`},
		{name: "two targets", args: []string{goodFile, badFile}, wantCode: 2, wantStderr: "at most one"},
		{name: "missing file", args: []string{"/no/such/bundle.yaml"}, wantCode: 2, wantStderr: "no such file"},
		{name: "unparsable", stdin: "a: [1, 2\n", wantCode: 2, wantStderr: "parse YAML stream"},
		{name: "cat-joined file", args: []string{joinedFile}, wantCode: 2, wantStderr: "two documents joined without `---`"},
		{name: "cat-joined stdin", stdin: joined, wantCode: 2, wantStderr: "two documents joined without `---`"},
		{name: "missing cert dir", args: []string{"--cert-dir", "/no/such/dir", goodFile}, wantCode: 2, wantStderr: "--cert-dir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCheckCmd(t, tt.stdin, nil, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.wantCode, stdout, stderr)
			}
			if tt.wantStdout == "" && stdout != "" || !strings.Contains(stdout, tt.wantStdout) {
				t.Errorf("stdout %q, want containing %q", stdout, tt.wantStdout)
			}
			if !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("stderr %q, want containing %q", stderr, tt.wantStderr)
			}
		})
	}
}

func TestCheckCommandJSON(t *testing.T) {
	bad := writeTemp(t, "bad.yaml", strings.Replace(readCheckGood(t), "--agent-port=8091", "--agent-port=9091", 1))
	code, stdout, _ := runCheckCmd(t, "", nil, "--output", "json", bad)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var r result.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if r.Errors != 1 || len(r.Findings) != 1 || r.Findings[0].Rule != "agent-port-mismatch" {
		t.Errorf("report = %+v, want exactly agent-port-mismatch", r)
	}
}

// TestCheckCommandDir builds kustomization directories in-process first: the
// repository's ipv4 overlay checks clean, a hand-edited bundle does not.
func TestCheckCommandDir(t *testing.T) {
	env := map[string]string{"KONNECTIVITY_BOOTSTRAP_IP": "192.0.2.10", "KONNECTIVITY_PROXY_VERSION": "v0.36"}
	code, stdout, stderr := runCheckCmd(t, "", env, "../../overlays/ipv4")
	if code != 0 || !strings.HasPrefix(stdout, "ok: checked 5 object(s) of ../../overlays/ipv4 (") {
		t.Errorf("overlays/ipv4: exit %d, stdout %q, stderr %q; want a clean pass", code, stdout, stderr)
	}
	dir := t.TempDir()
	bundle := strings.Replace(readCheckGood(t), "--mode=http-connect", "--mode=grpc", 1)
	for name, content := range map[string]string{"bundle.yaml": bundle, "kustomization.yaml": "resources: [bundle.yaml]\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, _ = runCheckCmd(t, "", env, dir)
	if code != 1 || !strings.Contains(stdout, "--mode=grpc") {
		t.Errorf("edited dir: exit %d, stdout %q; want mode-protocol-mismatch", code, stdout)
	}
	code, _, stderr = runCheckCmd(t, "", env, t.TempDir())
	if code != 2 || !strings.Contains(stderr, "nothing to check here") {
		t.Errorf("dir without kustomization: exit %d, stderr %q; want 2 and nothing to check here", code, stderr)
	}
}

func readCheckGood(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(checkTestdata, "bundle/good.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCheckSaysWhatItChecked: a clean check prints one line naming what it
// checked; -o json stays JSON only.
func TestCheckSaysWhatItChecked(t *testing.T) {
	bundle, err := os.ReadFile(filepath.Join("..", "..", "testdata", "golden", "upi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, string(bundle), "check", "-")
	want := "ok: checked 5 object(s) of standard input (Pod kube-system/konnectivity-server (server), DaemonSet openshift-bootstrap-konnectivity/konnectivity-agent (agents), " +
		"EgressSelectorConfiguration konnectivity-egress-selector, KubeAPIServerConfig konnectivity-config-override, Namespace openshift-bootstrap-konnectivity): 0 error(s), 0 warning(s), 1 info\n"
	// upi targets proxy v0.28, so the one info finding (no dial bound on
	// that version) comes first; nothing else may.
	notes, found := strings.CutSuffix(stdout, want)
	if code != 0 || !found || stderr != "" || strings.Count(notes, "\n") != 1 || !strings.HasPrefix(notes, "info: ") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0, one info line and %q", code, stdout, stderr, want)
	}
	if code, stdout, _ = runCLI(t, string(bundle), "check", "-o", "json", "-"); code != 0 || strings.Contains(stdout, "ok: checked") {
		t.Errorf("-o json: exit %d, stdout %q; want JSON only", code, stdout)
	}
}

// TestCheckEmptyDir: a directory with neither a kustomization nor a render
// is "nothing to check here", a usage-level error (exit 2), not kustomize's
// raw complaint.
func TestCheckEmptyDir(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "check", t.TempDir())
	if code != 2 || stdout != "" || !strings.Contains(stderr, "nothing to check here: no kustomization to build") || strings.Contains(stderr, "unable to find") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and nothing to check here", code, stdout, stderr)
	}
}

// TestCheckOverlay: check takes an overlay by name, as build, ports, diff
// and render do: it builds the embedded overlay and checks it; a word that
// names no overlay is answered with the overlays.
func TestCheckOverlay(t *testing.T) {
	runCLICases(t, []cliCase{
		{name: "overlay", args: []string{"check", "ipv4", "--bootstrap-ip", "192.0.2.10", "--image", goldenImage}, code: 0, stdout: []string{"checked 5 object(s) of ipv4"}},
		{name: "no such overlay", args: []string{"check", "nosuch"}, code: 2, stderr: `"nosuch" is not a file, a directory or an overlay (dualstack, ipv4, ipv6, sno, upi)`},
	})
}
