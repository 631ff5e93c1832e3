//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// routingCase pairs the server's --proxy-strategies with what the agent
// advertises in --agent-identifiers.
type routingCase struct {
	name        string
	strategies  string
	identifiers string // "" = the flag is not given
	routes      bool   // the real server routes a request to the agent
	rules       []string
}

// TestRoutingRulesAgreeWithBinaries: for each combination, check must report
// strategies-cannot-route exactly when the real proxy-server, with the real
// proxy-agent connected, answers a request `No agent available`, and
// agent-identifiers-invalid (error) when a strategy relies on a value the
// server cannot parse. The generator applies the same rules (package proxyversion).
func TestRoutingRulesAgreeWithBinaries(t *testing.T) {
	target := tunneltest.TargetIP
	cases := []routingCase{
		{name: "default, no identifiers", strategies: "default", routes: true},
		{name: "destHost,default, no identifiers", strategies: "destHost,default", routes: true, rules: []string{"first-strategy-unserved"}},
		{name: "destHost,defaultRoute, no identifiers", strategies: "destHost,defaultRoute", rules: []string{"strategies-cannot-route"}},
		{name: "destHost,defaultRoute, default-route=true", strategies: "destHost,defaultRoute", identifiers: "default-route=true", routes: true, rules: []string{"first-strategy-unserved"}},
		{name: "destHost, the target's address", strategies: "destHost", identifiers: "ipv4=" + target, routes: true},
		{name: "defaultRoute, comma-joined", strategies: "defaultRoute", identifiers: "default-route=true,ipv4=" + target, rules: []string{"agent-identifiers-invalid", "strategies-cannot-route"}},
		{name: "defaultRoute, not a bool", strategies: "defaultRoute", identifiers: "default-route=maybe", rules: []string{"agent-identifiers-invalid", "strategies-cannot-route"}},
	}
	stream, err := kustbuild.Build("ipv4", kustbuild.Options{BootstrapIP: netip.MustParseAddr(tunneltest.BootIP), Image: testImage, ProxyVersion: proxyVersion})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assertRoutingFindings(t, stream, tc)
			assertRealRouting(t, tc)
		})
	}
}

func (tc routingCase) serverArgs(a []string) []string {
	return append(dropFlags(a, "--proxy-strategies"), "--proxy-strategies="+tc.strategies)
}

func (tc routingCase) agentArgs(a []string) []string {
	a = dropFlags(a, "--agent-identifiers")
	if tc.identifiers != "" {
		a = append(a, "--agent-identifiers="+tc.identifiers)
	}
	return a
}

// assertRoutingFindings: check's routing findings are exactly tc.rules.
func assertRoutingFindings(t *testing.T, stream []byte, tc routingCase) {
	t.Helper()
	broken, _ := breakStream(t, stream, flagCase{mutate: tc.serverArgs})
	broken, _ = breakStream(t, broken, flagCase{agent: true, mutate: tc.agentArgs})
	findings, err := check.Check(broken, check.Options{})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	var got []string
	for _, f := range findings {
		if f.Severity == framework.Error || result.Rule(f) == "first-strategy-unserved" {
			got = append(got, result.Rule(f))
		}
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(tc.rules))
	if !slices.Equal(got, want) {
		t.Fatalf("check reports %v, want %v", got, want)
	}
}

// assertRealRouting runs the real server and agent with the case's flags,
// waits until the agent is connected, then dials a target only the node can
// reach through the socket, as the kube-apiserver does.
func assertRealRouting(t *testing.T, tc routingCase) {
	t.Helper()
	h := tunneltest.NewWith(t, tunneltest.Options{Overlay: "ipv4", Version: proxyVersion})
	h.Server, h.Agent = tc.serverArgs(h.Server), tc.agentArgs(h.Agent)
	ln, err := h.ListenNode(8443)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go holdConnections(ln)
	h.StartServer(t)
	h.StartAgent(t)
	if err := tunneltest.Eventually(2*time.Minute, func() error {
		rep := hoststatus.Run(context.Background(), hoststatus.Options{Root: h.Root, Dial: h.DialBoot, Timeout: 2 * time.Second})
		if rep.Agents != 1 {
			return fmt.Errorf("%d agents connected", rep.Agents)
		}
		return nil
	}); err != nil {
		t.Fatalf("the agent never connected: %v", err)
	}
	addr := net.JoinHostPort(tunneltest.TargetIP, "8443")
	res, err := egressprobe.Probe(context.Background(), egressprobe.Options{Root: h.Root, Target: addr, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case tc.routes && !res.OK:
		t.Fatalf("the real server did not route (%s: %s %s), but check says it can", res.Stage, res.Error, res.ProxyBody)
	case !tc.routes && res.OK:
		t.Fatal("the real server routed the request, but check says no strategy can")
	case !tc.routes && !strings.Contains(res.ProxyBody+res.Error, "No agent available"):
		t.Fatalf("refused with %q %q, want `No agent available`", res.Error, res.ProxyBody)
	}
	t.Logf("routes=%v: %s %s", res.OK, res.Error, strings.TrimSpace(res.ProxyBody))
}

// holdConnections keeps each accepted connection open until the peer closes
// it: closing at once races the server's `200 Connection established`.
func holdConnections(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			_, _ = io.Copy(io.Discard, c)
		}()
	}
}
