package kustbuild

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestOverlayPatchKeepsBaseSettings: an overlay's config patch changes only
// the fields it names. The upi overlay sets spec.server.agentPort; a server
// setting of the base (keepaliveTime, in a copy of the tree) must
// reach the server pod too. A patch that replaced spec.server whole (the
// JSON6902 `add /spec/server` the overlays once used) would wipe it and the
// server would run with the default. The real kustomize CLI must agree.
func TestOverlayPatchKeepsBaseSettings(t *testing.T) {
	tree := tooltest.ExecWiredTree(t)
	cfg := filepath.Join(tree, "base", "config", "konnectivitybundle.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(data), "\nspec:\n  ipFamily: ipv4\n") {
		t.Fatalf("base config no longer ends as this test expects; adapt the test:\n%s", data)
	}
	data = append(data, "  server:\n    keepaliveTime: 1m\n"...)
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}

	upi := filepath.Join(tree, "overlays", "upi")
	m, err := BuildModel(upi, inputs(t, "upi"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Spec.Server.KeepaliveTime != "1m" || m.Spec.Server.AgentPort != 9091 {
		t.Errorf("generator ran with server keepaliveTime %q agentPort %d, want the base's 1m and the overlay's 9091",
			m.Spec.Server.KeepaliveTime, m.Spec.Server.AgentPort)
	}
	args := containerArgs(t, m.Nodes, "Pod", "konnectivity-server")
	for _, want := range []string{"--keepalive-time=1m", "--agent-port=9091"} {
		if !slices.Contains(args, want) {
			t.Errorf("server args lack %s: %q", want, args)
		}
	}

	// The real kustomize CLI merges the patch the same way.
	out, err := newKustomizeCLI(t).build(t, upi, inputs(t, "upi"), "--enable-alpha-plugins", "--enable-exec")
	if err != nil {
		t.Fatalf("kustomize build: %v", err)
	}
	var docs []string
	for _, n := range m.Nodes {
		docs = append(docs, n.MustString())
	}
	if got := strings.Join(docs, "---\n"); got != string(out) {
		t.Errorf("kustomize CLI differs from the in-process build:\n%s", unifiedDiff(t, out, []byte(got)))
	}
}

// containerArgs returns the args of the container named like the object
// (kind Pod: spec.containers; otherwise the pod template's).
func containerArgs(t *testing.T, nodes []*yaml.RNode, kind, name string) []string {
	t.Helper()
	path := []string{"spec", "template", "spec", "containers", "[name=" + name + "]", "args"}
	if kind == "Pod" {
		path = path[2:]
	}
	for _, n := range nodes {
		if n.GetKind() != kind || n.GetName() != name {
			continue
		}
		args, err := n.Pipe(yaml.Lookup(path...))
		if err != nil || args == nil {
			t.Fatalf("%s %s has no %s: %v", kind, name, strings.Join(path, "."), err)
		}
		var out []string
		for _, a := range args.Content() {
			out = append(out, a.Value)
		}
		return out
	}
	t.Fatalf("no %s %s in the build", kind, name)
	return nil
}
