package cli

import (
	"bytes"
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// TestCommandsReadARenderedRoot: check, diff and ports accept the root
// render wrote, read its files as they are on disk now (an edit after render
// shows), check uses the root's certificates, and none of them writes the
// state file.
func TestCommandsReadARenderedRoot(t *testing.T) {
	root, edited := t.TempDir(), t.TempDir()
	for _, r := range []string{root, edited} {
		if _, err := render.Run(context.Background(), render.Options{Root: r, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: goldenImage}); err != nil {
			t.Fatal(err)
		}
	}
	// Break the agent port in the written DaemonSet, as a hand edit would.
	ds := filepath.Join(edited, "opt/openshift/manifests/konnectivity-agent-daemonset.yaml")
	data, err := os.ReadFile(ds)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ds, bytes.Replace(data, []byte("--proxy-server-port=8091"), []byte("--proxy-server-port=9091"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(edited, hostlayout.StatePath)
	before, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string
	}{
		{"check a root as rendered", []string{"check", root}, 0, nil},
		{"check sees the edit on disk", []string{"check", "-o", "json", edited}, 1, []string{`"rule": "agent-port-mismatch"`}},
		{"check uses the root's certificates", []string{"check", "-o", "json", root}, 0, []string{`"errors": 0`}},
		{"diff two roots", []string{"diff", root, edited}, 1, []string{"--- the host root " + root, "proxy-server-port", "8091", "9091"}},
		{"diff a root with itself", []string{"diff", root, root}, 0, []string{"no differences"}},
		{"ports of an edited root", []string{"ports", edited}, 0, []string{"9091"}},
	}
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
		})
	}
	after, err := os.ReadFile(state)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the state file changed (%v)", err)
	}
}

// TestCheckRenderedRootCertificates: a root whose server certificate names
// another IP than the agents dial fails through the root's own cert dir.
func TestCheckRenderedRootCertificates(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	for r, ip := range map[string]string{root: "192.0.2.10", other: "192.0.2.20"} {
		if _, err := render.Run(context.Background(), render.Options{Root: r, BootstrapIP: netip.MustParseAddr(ip), Image: goldenImage}); err != nil {
			t.Fatal(err)
		}
	}
	crt := "opt/openshift/tls/konnectivity/server.crt"
	data, err := os.ReadFile(filepath.Join(other, crt))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, crt), data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "check", "-o", "json", root)
	if code != 1 || !strings.Contains(stdout, `"rule": "server-cert-san-missing"`) {
		t.Fatalf("exit %d, want 1 with a server certificate finding\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
