package firewall_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
)

// hostCase is a bootstrap host's own firewall and the rule form for it.
type hostCase struct {
	name     string
	format   string
	nftChain string // --nft-chain
	baseline string // sh run in the bootstrap namespace first: the host's own rules
	drops    bool   // the baseline drops what it does not allow
}

var hostCases = []hostCase{
	{name: "nftables, no firewall", format: "nftables"},
	{name: "iptables, host rules accepting by default", format: "iptables", baseline: iptablesOwn},
	{name: "nftables --nft-chain, default-drop host", format: "nftables", nftChain: "inet filter input", baseline: nftDrop, drops: true},
	{name: "iptables, default-drop host", format: "iptables", baseline: iptablesDrop, drops: true},
}

// The hosts' own rules. IPv6 needs ICMPv6 (neighbour discovery) to work at all.
const (
	iptablesOwn  = `for ipt in iptables ip6tables; do $ipt -A INPUT -p tcp --dport 9999 -j ACCEPT; done`
	iptablesDrop = `for ipt in iptables ip6tables; do $ipt -A INPUT -i lo -j ACCEPT; done
ip6tables -A INPUT -p ipv6-icmp -j ACCEPT
iptables -P INPUT DROP; ip6tables -P INPUT DROP`
	nftDrop = `nft -f - <<'EOF'
table inet filter {
	chain input {
		type filter hook input priority filter; policy drop;
		iif lo accept
		meta l4proto ipv6-icmp accept
	}
}
EOF`
)

// TestRulesInNetns applies the nftables and iptables rules that ports
// writes for a rendered root to a bootstrap namespace, then proves them with
// the real proxy-server and proxy-agent: the node's agent connects and a
// webhook-shaped HTTPS call through the tunnel succeeds; an outsider cannot
// reach the agent port but still reaches what the host allowed before; the
// rules apply twice to the same ruleset; the revoke form restores the
// namespace's ruleset exactly.
func TestRulesInNetns(t *testing.T) {
	for _, tool := range [][2]string{{"nft", "nftables"}, {"iptables", "iptables"}, {"ip6tables", "iptables"}, {"iptables-save", "iptables"}, {"ip6tables-save", "iptables"}} {
		tooltest.System(t, tool[0], tool[1])
	}
	for _, fam := range []string{"ipv4", "ipv6"} {
		t.Run(fam, func(t *testing.T) {
			h := tunneltest.NewWith(t, tunneltest.Options{Overlay: fam, IPv6: fam == "ipv6", Outsider: true})
			startWebhook(t, h)
			startOther(t, h)
			h.StartServer(t)
			for _, hc := range hostCases {
				t.Run(hc.name, func(t *testing.T) { runHostCase(t, h, hc) })
			}
		})
	}
}

func runHostCase(t *testing.T, h *tunneltest.Host, hc hostCase) {
	t.Cleanup(func() { inBoot(t, h, "nft flush ruleset") })
	agent := agentAddr(t, h)
	other := net.JoinHostPort(h.Addr.Boot, "9999")
	if hc.baseline != "" {
		inBoot(t, h, hc.baseline)
	}
	if reach(h.Outsider, agent) != !hc.drops || reach(h.Node, agent) != !hc.drops {
		t.Fatalf("before the rules the agent port is reachable=%v, want %v: the test would prove nothing", reach(h.Node, agent), !hc.drops)
	}
	before := ruleset(t, h)
	flags := []string{"--from", h.Addr.NodeNet}
	if hc.nftChain != "" {
		flags = append(flags, "--nft-chain", hc.nftChain)
	}
	apply(t, h, hc.format, flags)
	once := ruleset(t, h)
	apply(t, h, hc.format, flags)
	if again := ruleset(t, h); again != once {
		t.Errorf("applying twice changed the ruleset:\n%s", diff(t, once, again))
	}
	h.StartAgent(t)
	webhookThroughTunnel(t, h)
	if reach(h.Outsider, agent) {
		t.Errorf("the outsider %s reaches the agent port %s", h.Addr.Outsider, agent)
	}
	if reach(h.Outsider, other) != !hc.drops {
		t.Errorf("the outsider reaches the other listener %s: %v, want %v as before the rules", other, !hc.drops, !hc.drops)
	}
	h.StopAgent()
	revoke := append(flags, "--revoke")
	apply(t, h, hc.format, revoke)
	apply(t, h, hc.format, revoke)
	if after := ruleset(t, h); after != before {
		t.Errorf("revoking did not restore the ruleset:\n%s", diff(t, before, after))
	}
}

// apply writes the rules with ports (in-process, reading the rendered root
// as ports does) and runs them in the bootstrap namespace.
func apply(t *testing.T, h *tunneltest.Host, format string, flags []string) {
	t.Helper()
	out := ports(t, append(append([]string{"-o", format}, flags...), h.Root)...)
	file := filepath.Join(t.TempDir(), format)
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	run := []string{"sh", file}
	if strings.HasPrefix(out, "#!/usr/sbin/nft -f") {
		run = []string{"nft", "-f", file}
	}
	if b, err := exec.Command("ip", append([]string{"netns", "exec", h.Boot}, run...)...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s\n--- rules:\n%s", format, flags, err, b, out)
	}
}

func inBoot(t *testing.T, h *tunneltest.Host, script string) {
	t.Helper()
	if b, err := exec.Command("ip", "netns", "exec", h.Boot, "sh", "-c", script).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, b)
	}
}

var (
	counters = regexp.MustCompile(`\[\d+:\d+\]|packets \d+ bytes \d+`)
	comments = regexp.MustCompile(`(?m)^#.*\n`)
)

// ruleset is everything netfilter holds in the bootstrap namespace, as nft
// and iptables-save print it; timestamps and packet counters, which the
// test's own traffic moves, are left out.
func ruleset(t *testing.T, h *tunneltest.Host) string {
	t.Helper()
	var s strings.Builder
	for _, cmd := range [][]string{{"nft", "list", "ruleset"}, {"iptables-save"}, {"ip6tables-save"}} {
		b, err := exec.Command("ip", append([]string{"netns", "exec", h.Boot}, cmd...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", cmd, err, b)
		}
		fmt.Fprintf(&s, "### %s\n%s", cmd[0], counters.ReplaceAllString(comments.ReplaceAllString(string(b), ""), "N"))
	}
	return s.String()
}

func agentAddr(t *testing.T, h *tunneltest.Host) string {
	t.Helper()
	port, err := h.Rendered.Bundle.Server.Port("agent-port")
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort(h.Addr.Boot, fmt.Sprint(port))
}

// reach reports whether a TCP connection from ns to addr is accepted.
func reach(ns, addr string) bool {
	err := tunneltest.InNetns(ns, func() error {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return err
		}
		return c.Close()
	})
	return err == nil
}

const webhookPort = 8443

// startWebhook serves HTTPS on the node's target address, where only the
// node reaches it: the bootstrap side gets there through the tunnel only.
func startWebhook(t *testing.T, h *tunneltest.Host) {
	t.Helper()
	l, err := h.ListenNode(webhookPort)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") }))
	srv.Listener.Close()
	srv.Listener = l
	srv.StartTLS()
	t.Cleanup(srv.Close)
}

// startOther is a second listener on the bootstrap host, which the rules
// must leave as it was.
func startOther(t *testing.T, h *tunneltest.Host) {
	t.Helper()
	tunneltest.ServeAccepts(t, h.Boot, net.JoinHostPort(h.Addr.Boot, "9999"))
}

// webhookThroughTunnel calls the webhook through the server's socket, as
// the kube-apiserver does, until the agent has connected.
func webhookThroughTunnel(t *testing.T, h *tunneltest.Host) {
	t.Helper()
	url := "https://" + net.JoinHostPort(h.Addr.Target, fmt.Sprint(webhookPort)) + "/healthz"
	err := tunneltest.Eventually(90*time.Second, func() error {
		res, err := egressprobe.Probe(context.Background(), egressprobe.Options{Root: h.Root, Target: url, Timeout: 5 * time.Second})
		if err != nil {
			return err
		}
		if !res.OK || res.HTTPStatus != http.StatusOK {
			return errors.New(res.Stage + ": " + res.Error + " " + res.ProxyBody)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the webhook call through the tunnel never succeeded: %v", err)
	}
}
