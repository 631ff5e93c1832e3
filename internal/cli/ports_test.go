package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/render"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

func TestPortsCommand(t *testing.T) {
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Overlay: "ipv6", Root: root, BootstrapIP: "2001:db8::10", Image: goldenImage}); err != nil {
		t.Fatal(err)
	}
	upi := filepath.Join(tooltest.RepoRoot(), "overlays", "upi")
	empty := t.TempDir() // like `ports /` on a host render has not run on
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{"customised overlay dir", []string{"ports", upi}, 0, []string{"TCP 9091  agent tunnel", "to:     the bootstrap host 192.0.2.10", "nodes labelled node-role.kubernetes.io/worker"}, ""},
		{"golden file", []string{"ports", golden("ipv4")}, 0, []string{"TCP 8091  agent tunnel", "unix socket /etc/kubernetes/bootstrap-configs/konnectivity-server.socket"}, ""},
		{"rendered root", []string{"ports", root}, 0, []string{"Network requirements of the host root " + root, "to:     the bootstrap host 2001:db8::10"}, ""},
		{"overlay name with inputs", []string{"ports", "--bootstrap-ip", "192.0.2.77", "--image", goldenImage, "dualstack"}, 0, []string{"the bootstrap host 192.0.2.77"}, ""},
		{"bootstrap-in-place", []string{"ports", golden("sno")}, 0, []string{"None: the bundle deploys no Konnectivity tunnel"}, ""},
		{"bad output", []string{"ports", "-o", "yaml", upi}, 2, nil, `--output: unknown format "yaml"`},
		{"two args", []string{"ports", upi, upi}, 2, nil, "at most one"},
		{"unknown target", []string{"ports", "nope"}, 1, nil, `"nope" is not a file, a directory or an overlay`},
		{"a root with nothing rendered", []string{"ports", empty}, 1, nil, empty + ": nothing rendered here (no var/lib/konnectivity-bundle/state.json)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
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

func TestPortsCommandJSON(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "ports", "-o", "json", filepath.Join(tooltest.RepoRoot(), "overlays", "upi"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Enabled      bool
		Requirements []struct {
			Protocol, Scope, To string
			Port                int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if !rep.Enabled || len(rep.Requirements) == 0 || rep.Requirements[0].Port != 9091 || rep.Requirements[0].Scope != "network" {
		t.Fatalf("report %+v, want the agent tunnel on 9091 first", rep)
	}
}
