package check

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// checkAgentFlags applies the flag rules proxy-agent enforces.
func checkAgentFlags(b *bundlemodel.Bundle, _ Options, r *report) {
	w := b.Agent
	if w == nil {
		return
	}
	checkFlagSyntax(w, r)
	checkAgentTLS(w, r)
	checkAgentTiming(w, r)
	var strategies []string
	if b.Server != nil {
		strategies = b.Server.Flags.Strategies()
	}
	checkIdentifiers(w, strategies, r)
	checkServerHost(b, r)
}

func checkAgentTLS(w *bundlemodel.Workload, r *report) {
	f, ref, args := w.Flags, w.Object.Ref(), w.Field+".args"
	if f.Value("ca-cert") == "" {
		r.errorf("agent-ca-cert-required", ref, f.FieldOr("ca-cert", args),
			"set --ca-cert=/etc/konnectivity/ca.crt (the ca.crt key of the agent Secret)",
			"--ca-cert is missing or empty; proxy-agent fails at once (`failed to read CA cert : read .: is a directory`)")
	}
	cert, key := f.Value("agent-cert"), f.Value("agent-key")
	switch {
	case cert != "" && key != "":
		return
	case cert == "" && key == "" && f.Value("service-account-token-path") != "":
		return // token authentication instead of a client certificate
	}
	for _, name := range []string{"agent-cert", "agent-key"} {
		if f.Value(name) == "" {
			r.errorf("agent-cert-required", ref, f.FieldOr(name, args),
				"set --agent-cert=/etc/konnectivity/tls.crt and --agent-key=/etc/konnectivity/tls.key",
				"--%s is missing or empty; the agent cannot authenticate to the server with a client certificate", name)
		}
	}
}

func checkAgentTiming(w *bundlemodel.Workload, r *report) {
	f, ref := w.Flags, w.Object.Ref()
	if d, ok := f.Duration("keepalive-time"); ok && d < proxyversion.MinAgentKeepalive {
		r.errorf("agent-keepalive-too-short", ref, f.FieldOr("keepalive-time", w.Field+".args"),
			"set --keepalive-time=30s or more",
			"--keepalive-time=%s is below the server's 30s keepalive minimum; the server drops the agent with too_many_pings", d)
	}
	sync, ok1 := f.Duration("sync-interval")
	capd, ok2 := f.Duration("sync-interval-cap")
	if ok1 && ok2 && sync > capd {
		r.errorf("sync-interval-above-cap", ref, f.FieldOr("sync-interval", w.Field+".args"),
			"make --sync-interval at most --sync-interval-cap (e.g. 5s and 30s)",
			"--sync-interval=%s is above --sync-interval-cap=%s (proxy-agent: sync interval must be less than sync interval cap)", sync, capd)
	}
}

// checkIdentifiers: --agent-identifiers is URL-query syntax with known keys,
// and values a listed proxy strategy relies on must be ones the server parses.
func checkIdentifiers(w *bundlemodel.Workload, strategies []string, r *report) {
	u, ok := w.Flags.Get("agent-identifiers")
	if !ok || u.Value == "" {
		return
	}
	const fix = "write --agent-identifiers in URL-query form with keys ipv4, ipv6, cidr, host, default-route joined by '&', e.g. ipv4=10.0.0.5&default-route=true"
	q, unknown, err := w.Flags.Identifiers()
	if err != nil {
		r.errorf("agent-identifiers-invalid", w.Object.Ref(), u.Field, fix, "--agent-identifiers=%q is not URL-query syntax: %v", u.Value, err)
		return
	}
	for _, k := range unknown {
		r.errorf("agent-identifiers-invalid", w.Object.Ref(), u.Field, fix,
			"--agent-identifiers has unknown key %q (proxy-agent: unknown address type: %s)", k, k)
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if slices.Contains(unknown, k) {
			continue
		}
		for _, v := range q[k] {
			msg := bundlemodel.IdentifierValueProblem(k, v)
			if msg == "" {
				continue
			}
			// proxy-agent starts with such a value; the server just never matches it.
			sev, why := framework.Warning, ""
			if s := proxyversion.StrategyRelyingOn(k); slices.Contains(strategies, s) {
				sev, why = framework.Error, fmt.Sprintf(" (the %s strategy relies on it)", s)
			}
			r.add(sev, "agent-identifiers-invalid", w.Object.Ref(), u.Field,
				fmt.Sprintf("--agent-identifiers %s=%q %s, so the server can never match it%s", k, v, msg, why), fix)
		}
	}
}

// checkServerHost: agents on cluster nodes must dial the bootstrap node.
func checkServerHost(b *bundlemodel.Bundle, r *report) {
	t, ref := b.Tunnel, b.Agent.Object.Ref()
	const fix = "set --proxy-server-host to the bootstrap node's IP"
	switch {
	case !t.HostGiven():
		r.errorf("proxy-server-host-invalid", ref, t.HostField, fix,
			"--proxy-server-host is missing; agents would dial %s, their own node", t.Dials)
	case t.Addr.IsLoopback() || t.Addr.IsUnspecified():
		r.errorf("proxy-server-host-invalid", ref, t.HostField, fix,
			"--proxy-server-host=%s is not the bootstrap node: agents on cluster nodes would dial themselves", t.Host)
	case t.Addr.IsValid():
		// The one check of a bootstrap IP (render's, the generator's):
		// link-local, multicast, broadcast and the like are refused there,
		// so a bundle that dials one was not rendered by them, or was edited.
		if e := bootstrapip.AsError(bootstrapip.Check(t.Addr, "")); e != nil {
			r.errorf("proxy-server-host-invalid", ref, t.HostField, fix,
				"--proxy-server-host=%s is %s; agents on other nodes cannot reach it", t.Host, e.Kind)
		}
	case !validDNSName(t.Host):
		r.errorf("proxy-server-host-invalid", ref, t.HostField, fix,
			"--proxy-server-host=%q is neither an IP address nor a DNS name (IPv6 needs no brackets)", t.Host)
	case numericTLD(t.Host):
		// 010.0.0.1 is no address netip reads, and resolvers disagree on
		// it (some read octal); no top-level domain is all digits.
		r.errorf("proxy-server-host-invalid", ref, t.HostField, fix,
			"--proxy-server-host=%q looks like an IPv4 address but is not one (no leading zeros) and is no DNS name either", t.Host)
	}
}

// numericTLD reports whether a DNS name's last label is all digits, which
// RFC 3696 section 2 rules out: such a name is a mistyped address.
func numericTLD(s string) bool {
	labels := strings.Split(strings.TrimSuffix(s, "."), ".")
	last := labels[len(labels)-1]
	return strings.Trim(last, "0123456789") == ""
}

func validDNSName(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(s, "."), ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}
