package tooltest_test

import (
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestRepoRoot: RepoRoot is the module's root, whatever directory the
// package moves to.
func TestRepoRoot(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "go.mod"))
	if err != nil || !strings.HasPrefix(string(mod), "module github.com/bootstrap-konnectivity/konnectivity-bundle\n") {
		t.Fatalf("RepoRoot %s holds no konnectivity-bundle go.mod (%v)", tooltest.RepoRoot(), err)
	}
}

// TestWriteOverlay builds written overlays in-process: the spec patch, the
// config taken from another directory and the extra fields all reach the
// bundle.
func TestWriteOverlay(t *testing.T) {
	cases := []struct {
		name string
		o    tooltest.Overlay
		ip   string
		want []string
	}{
		{"base config as is", tooltest.Overlay{}, "192.0.2.10", []string{"--agent-port=8091", "--proxy-server-host=192.0.2.10"}},
		{"spec patch", tooltest.Overlay{Spec: "server:\n  agentPort: 9443\n"}, "192.0.2.10", []string{"--agent-port=9443", "--proxy-server-port=9443"}},
		{"an overlay's config", tooltest.Overlay{Config: "overlays/ipv6/config", Spec: "mode: http-connect\n"}, "2001:db8::10", []string{"--proxy-server-host=2001:db8::10", "--mode=http-connect"}},
		{"extra fields and a check", tooltest.Overlay{Transformers: []string{"base/check"}, Extra: "commonLabels:\n  written-by: tooltest\n"}, "192.0.2.10", []string{"written-by: tooltest"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := kustbuild.Build(tooltest.WriteOverlay(t, tc.o), kustbuild.Options{BootstrapIP: netip.MustParseAddr(tc.ip), ProxyVersion: proxyversion.V036, Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("built bundle lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
