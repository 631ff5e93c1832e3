package hoststatus_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// strategyOverlay writes an overlay whose config sets the server's proxy
// strategies and the agents' identifiers, the way overlays/ipv6 patches its
// config, and returns its directory.
func strategyOverlay(t *testing.T, strategies, identifiers string) string {
	return tooltest.WriteOverlay(t, tooltest.Overlay{
		Spec:         fmt.Sprintf("server:\n  proxyStrategies: [%s]\nagent:\n  identifiers: %q\n", strategies, identifiers),
		Transformers: []string{"base/check"},
	})
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
		version  *proxyversion.Version
		agentIDs string // what the running agent advertises; "" = as rendered
		severity framework.Severity
		detail   string
	}{
		{"routes through defaultRoute", proxyversion.V036, "", framework.Warning, "requests route through defaultRoute, but the first strategy destHost has none"},
		{"comma-joined identifiers route nowhere", proxyversion.V036, "default-route=true,ipv4=" + tunneltest.NodeIP, framework.Error, "no proxy strategy"},
		// v0.28 reports no readiness per strategy: the agent is counted,
		// and routing is judged from the rendered identifiers, saying so.
		{"v0.28 counts the agent", proxyversion.V028, "", framework.Info, "1 agent(s) connected (routing per strategy is not reported by proxy v0.28"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tunneltest.NewWith(t, tunneltest.Options{Overlay: strategyOverlay(t, "destHost, defaultRoute", "default-route=true"), Version: tc.version})
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
			check(t, rep, want{usable: tc.severity != framework.Error, agents: 1,
				checks:   map[string]framework.Severity{"agents": tc.severity},
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
