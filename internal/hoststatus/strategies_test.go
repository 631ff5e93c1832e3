package hoststatus_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
)

// strategyOverlay writes an overlay whose config sets the server's proxy
// strategies and the agents' identifiers, the way overlays/ipv6 patches its
// config, and returns its directory.
func strategyOverlay(t *testing.T, strategies, identifiers string) string {
	t.Helper()
	base, err := filepath.Abs("../../base")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// kustomize refuses absolute resource paths: name the base relative to each file.
	top, err1 := filepath.Rel(dir, base)
	sub, err2 := filepath.Rel(filepath.Join(dir, "config"), base)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	files := map[string]string{
		"kustomization.yaml":        fmt.Sprintf("generators:\n- config\ntransformers:\n- %s/check\n", top),
		"config/kustomization.yaml": fmt.Sprintf("resources:\n- %s/function\npatches:\n- path: config-patch.yaml\n", sub),
		"config/config-patch.yaml":  tooltest.ConfigPatch(fmt.Sprintf("server:\n  proxyStrategies: [%s]\nagent:\n  identifiers: %q\n", strategies, identifiers)),
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestStatusCountsAgentsNotFirstStrategy: with destHost first and agents
// that advertise only default-route=true, the real proxy-server routes
// through defaultRoute while destHost has no backend. status must say an
// agent is connected (a warning about /readyz), never "no agent connected";
// and when the running agent advertises something no strategy can use
// (comma-joined identifiers), it must say connected-but-unroutable.
func TestStatusCountsAgentsNotFirstStrategy(t *testing.T) {
	cases := []struct {
		name     string
		agentIDs string // what the running agent advertises; "" = as rendered
		severity hoststatus.Severity
		detail   string
	}{
		{"routes through defaultRoute", "", hoststatus.Warning, "requests route through defaultRoute, but the first strategy destHost has none"},
		{"comma-joined identifiers route nowhere", "default-route=true,ipv4=" + tunneltest.NodeIP, hoststatus.Error, "no proxy strategy"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tunneltest.New(t, strategyOverlay(t, "destHost, defaultRoute", "default-route=true"))
			if tc.agentIDs != "" {
				h.Agent = replaceArg(h.Agent, "--agent-identifiers=", tc.agentIDs)
			}
			h.StartServer(t)
			h.StartAgent(t)
			var rep *hoststatus.Report
			err := tunneltest.Eventually(60*time.Second, func() error {
				rep = hoststatus.Run(context.Background(), hoststatus.Options{Root: h.Root, Dial: h.DialBoot, Timeout: 2 * time.Second})
				if rep.Agents != 1 {
					return fmt.Errorf("%d agents connected", rep.Agents)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("status never counted the connected agent: %v", err)
			}
			check(t, rep, want{usable: tc.severity != hoststatus.Error, agents: 1,
				checks:   map[string]hoststatus.Severity{"agents": tc.severity},
				detailed: map[string]string{"agents": tc.detail}})
		})
	}
}

func replaceArg(argv []string, prefix, value string) []string {
	out := make([]string, 0, len(argv))
	for _, a := range argv {
		if strings.HasPrefix(a, prefix) {
			a = prefix + value
		}
		out = append(out, a)
	}
	return out
}
