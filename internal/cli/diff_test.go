package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// runCLI runs the program in-process with no environment.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	io := IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code = New(Config{}).Main(append([]string{ProgramName}, args...), io)
	return code, out.String(), errb.String()
}

// cliCase is one run of the command line: its exit code, text stdout must
// contain and text stderr must contain.
type cliCase struct {
	name   string
	args   []string
	code   int
	stdout []string
	stderr string
}

// runCLICases runs each case as a subtest.
func runCLICases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderr)
			}
		})
	}
}

const goldenImage = "quay.io/openshift/origin-apiserver-network-proxy:4.20"

func golden(name string) string {
	return filepath.Join(tooltest.RepoRoot(), "testdata", "golden", name+".yaml")
}

func TestDiffCommand(t *testing.T) {
	ipv4, err := os.ReadFile(golden("ipv4"))
	if err != nil {
		t.Fatal(err)
	}
	upiDir := filepath.Join(tooltest.RepoRoot(), "overlays", "upi")
	for _, tc := range []struct {
		name     string
		stdin    string
		args     []string
		code     int
		stdout   []string // substrings
		stderr   string
		noStdout bool
	}{
		{name: "golden file equals its overlay build", code: 0,
			args:   []string{"diff", "--bootstrap-ip", "192.0.2.10", "--image", goldenImage, golden("ipv4"), "ipv4"},
			stdout: []string{"no differences"}},
		{name: "overlays: the flag disagreeing with upi's spec.bootstrapIP is an error", code: 2,
			args:   []string{"diff", "--overlays", "--bootstrap-ip", "192.0.2.20", "--proxy-version", "v0.28", "ipv4", "upi"},
			stderr: "--bootstrap-ip 192.0.2.20 disagrees with overlay upi's spec.bootstrapIP 192.0.2.10", noStdout: true},
		{name: "stdin against a file", stdin: string(ipv4), code: 0,
			args: []string{"diff", "-", golden("ipv4")}, stdout: []string{"no differences: stdin and "}},
		{name: "upi directory: one line per changed flag", code: 1,
			args: []string{"diff", golden("ipv4"), upiDir},
			stdout: []string{
				"~ spec.containers[konnectivity-server].args[--agent-port]: --agent-port=8091 -> --agent-port=9091\n",
				"~ spec.template.spec.containers[konnectivity-agent].args[--proxy-server-port]: --proxy-server-port=8091 -> --proxy-server-port=9091\n",
				"2 changed, 0 added, 0 removed\n",
			}},
		{name: "two overlays with one IP each", code: 1,
			args:   []string{"diff", "--overlays", "ipv4", "ipv6", "--bootstrap-ip", "192.0.2.10,2001:db8::10", "--image", goldenImage, "-o", "markdown"},
			stdout: []string{"### Bundle diff: `overlay ipv4` → `overlay ipv6`", "| ~ | `spec.template.spec.containers[konnectivity-agent].args[--proxy-server-host]` | `--proxy-server-host=192.0.2.10` | `--proxy-server-host=2001:db8::10` |"}},
		{name: "two overlays, one IP for both: the error shows the A,B form", code: 2, noStdout: true,
			args:   []string{"diff", "--overlays", "ipv4", "ipv6", "--bootstrap-ip", "192.0.2.10", "--proxy-version", "v0.36"},
			stderr: "--bootstrap-ip 192.0.2.10 served both A and B; give each side its own value as A,B, e.g. --bootstrap-ip 192.0.2.10,2001:db8::10"},
		{name: "sno builds nothing: everything removed", code: 1,
			args:   []string{"diff", "--bootstrap-ip", "192.0.2.10", "--image", goldenImage, "ipv4", "sno"},
			stdout: []string{"- v1 Pod kube-system/konnectivity-server\n", "0 changed, 0 added, 5 removed\n"}},
		{name: "--overlays refuses a file", code: 2, noStdout: true,
			args: []string{"diff", "--overlays", golden("ipv4"), "ipv4"}, stderr: "is not an overlay"},
		{name: "missing argument", code: 2, noStdout: true, args: []string{"diff", "ipv4"}, stderr: "exactly two bundles"},
		{name: "unknown source", code: 2, noStdout: true, args: []string{"diff", "nope", "ipv4"}, stderr: `A: "nope" is not a file, a directory or an overlay`},
		{name: "bad output", code: 2, noStdout: true, args: []string{"diff", "-o", "html", "a", "b"}, stderr: `invalid argument "html" for "-o, --output" flag: use one of text, markdown, json`},
		{name: "two stdins", code: 2, noStdout: true, args: []string{"diff", "-", "-"}, stderr: "only one of A and B"},
		{name: "three IPs", code: 2, noStdout: true, args: []string{"diff", "--bootstrap-ip", "192.0.2.1,192.0.2.2,192.0.2.3", "ipv4", "ipv6"}, stderr: "--bootstrap-ip takes one value or two"},
		{name: "unparsable side", stdin: "kind: [", code: 2, noStdout: true, args: []string{"diff", "-", golden("ipv4")}, stderr: "A (stdin): document 1: not valid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			if tc.noStdout && stdout != "" {
				t.Errorf("stdout should be empty on error, got:\n%s", stdout)
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderr)
			}
			if strings.Contains(stdout, "\x1b[") {
				t.Errorf("colour codes written to a non-terminal:\n%q", stdout)
			}
		})
	}
}

func TestDiffCommandJSON(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "diff", "-o", "json", golden("ipv4"), golden("upi"))
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
	}
	var rep struct {
		Equal   bool
		Summary map[string]int
		Objects []struct {
			Kind    string
			Status  string
			Changes []struct{ Op, Path string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if rep.Equal || rep.Summary["changed"] != 2 || len(rep.Objects) != 2 {
		t.Fatalf("report %+v, want 2 changed objects", rep)
	}
	for _, o := range rep.Objects {
		if len(o.Changes) == 0 {
			t.Errorf("%s has no changes listed", o.Kind)
		}
	}
}

func TestWantColour(t *testing.T) {
	buf := IO{Stdout: &strings.Builder{}, Getenv: func(string) string { return "" }}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	noColor := IO{Stdout: os.Stdout, Getenv: func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}}
	for _, tc := range []struct {
		name, mode string
		io         IO
		want       bool
	}{
		{"always", "always", buf, true},
		{"never", "never", buf, false},
		{"auto to a buffer", "auto", buf, false},
		{"auto to /dev/null (a character device, not a terminal)", "auto", IO{Stdout: devnull, Getenv: buf.Getenv}, false},
		{"auto with NO_COLOR", "auto", noColor, false},
	} {
		got, err := wantColour(tc.mode, tc.io)
		if err != nil || got != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := wantColour("sometimes", buf); err == nil {
		t.Error("an unknown --color value was accepted")
	}
}

// TestDiffTwoRenders: two roots rendered from the same overlay with the same
// certificates differ only in render's per-root owner id, which diff leaves
// out (docs/ci.md), so they compare equal.
func TestDiffTwoRenders(t *testing.T) {
	var roots [2]string
	for i := range roots {
		roots[i] = t.TempDir()
		if i == 1 { // the first root's certificates, so only the owner id can differ
			copyDir(t, filepath.Join(roots[0], bundle.DefaultCertDir), filepath.Join(roots[1], bundle.DefaultCertDir))
		}
		// Force: the copied certificates are files this root's render did not write.
		if _, err := render.Run(context.Background(), render.Options{Overlay: "ipv4", Root: roots[i], BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: goldenImage, Force: i == 1}); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runCLI(t, "", "diff", roots[0], roots[1])
	if code != 0 || !strings.Contains(stdout, "no differences") {
		t.Fatalf("exit %d, want 0 and no differences\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDiffImagePin: diff builds its sides with the same pin rule as build:
// --image over upi's pin is an error naming --keep-pin, which diff takes.
func TestDiffImagePin(t *testing.T) {
	const image = "quay.io/example/apiserver-network-proxy:given"
	code, _, stderr := runCLI(t, "", "diff", "--overlays", "--image", image, "upi", "upi")
	if code != 2 || !strings.Contains(stderr, "--image "+image+" would replace the image the overlay pins") {
		t.Errorf("exit %d, stderr %q; want 2 and the pin conflict", code, stderr)
	}
	if code, _, stderr = runCLI(t, "", "diff", "--overlays", "--image", image, "--keep-pin", "upi", "upi"); code != 0 {
		t.Errorf("--keep-pin: exit %d, stderr %q; want 0 (the same overlay twice)", code, stderr)
	}
}
