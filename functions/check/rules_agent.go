package check

import (
	"fmt"
	"net"
	"slices"
	"sort"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
)

// checkAgentFlags applies the flag rules proxy-agent enforces.
func checkAgentFlags(b *bundle, _ Options, r *report) {
	w := b.agent
	if w == nil {
		return
	}
	checkFlagSyntax(w, r)
	checkAgentTLS(w, r)
	checkAgentTiming(w, r)
	var strategies []string
	if b.server != nil {
		strategies = strategiesOf(b.server)
	}
	checkIdentifiers(w, strategies, r)
	checkServerHost(w, r)
}

func checkAgentTLS(w *workload, r *report) {
	f, ref, args := w.flags, w.obj.ref(), w.field+".args"
	if f.value("ca-cert") == "" {
		r.errorf("agent-ca-cert-required", ref, f.fieldOr("ca-cert", args),
			"set --ca-cert=/etc/konnectivity/ca.crt (the ca.crt key of the agent Secret)",
			"--ca-cert is missing or empty; proxy-agent fails at once (`failed to read CA cert : read .: is a directory`)")
	}
	cert, key := f.value("agent-cert"), f.value("agent-key")
	switch {
	case cert != "" && key != "":
		return
	case cert == "" && key == "" && f.value("service-account-token-path") != "":
		return // token authentication instead of a client certificate
	}
	for _, name := range []string{"agent-cert", "agent-key"} {
		if f.value(name) == "" {
			r.errorf("agent-cert-required", ref, f.fieldOr(name, args),
				"set --agent-cert=/etc/konnectivity/tls.crt and --agent-key=/etc/konnectivity/tls.key",
				"--%s is missing or empty; the agent cannot authenticate to the server with a client certificate", name)
		}
	}
}

func checkAgentTiming(w *workload, r *report) {
	f, ref := w.flags, w.obj.ref()
	if d, ok := f.durationFlag("keepalive-time"); ok && d < anp.MinAgentKeepalive {
		r.errorf("agent-keepalive-too-short", ref, f.fieldOr("keepalive-time", w.field+".args"),
			"set --keepalive-time=30s or more",
			"--keepalive-time=%s is below the server's 30s keepalive minimum; the server drops the agent with too_many_pings", d)
	}
	sync, ok1 := f.durationFlag("sync-interval")
	capd, ok2 := f.durationFlag("sync-interval-cap")
	if ok1 && ok2 && sync > capd {
		r.errorf("sync-interval-above-cap", ref, f.fieldOr("sync-interval", w.field+".args"),
			"make --sync-interval at most --sync-interval-cap (e.g. 5s and 30s)",
			"--sync-interval=%s is above --sync-interval-cap=%s (proxy-agent: sync interval must be less than sync interval cap)", sync, capd)
	}
}

// checkIdentifiers: --agent-identifiers is URL-query syntax with known keys,
// and values a listed proxy strategy relies on must be ones the server parses.
func checkIdentifiers(w *workload, strategies []string, r *report) {
	u, ok := w.flags.get("agent-identifiers")
	if !ok || u.Value == "" {
		return
	}
	const fix = "write --agent-identifiers in URL-query form with keys ipv4, ipv6, cidr, host, default-route joined by '&', e.g. ipv4=10.0.0.5&default-route=true"
	q, unknown, err := anp.ParseIdentifiers(u.Value)
	if err != nil {
		r.errorf("agent-identifiers-invalid", w.obj.ref(), u.Field, fix, "--agent-identifiers=%q is not URL-query syntax: %v", u.Value, err)
		return
	}
	for _, k := range unknown {
		r.errorf("agent-identifiers-invalid", w.obj.ref(), u.Field, fix,
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
			msg := anp.IdentifierValueProblem(k, v)
			if msg == "" {
				continue
			}
			// proxy-agent starts with such a value; the server just never matches it.
			sev, why := SeverityWarning, ""
			if s := anp.StrategyRelyingOn(k); slices.Contains(strategies, s) {
				sev, why = SeverityError, fmt.Sprintf(" (the %s strategy relies on it)", s)
			}
			r.add(sev, "agent-identifiers-invalid", w.obj.ref(), u.Field,
				fmt.Sprintf("--agent-identifiers %s=%q %s, so the server can never match it%s", k, v, msg, why), fix)
		}
	}
}

// checkServerHost: agents on cluster nodes must dial the bootstrap node.
func checkServerHost(w *workload, r *report) {
	u, ok := w.flags.get("proxy-server-host")
	const fix = "set --proxy-server-host to the bootstrap node's IP"
	if !ok || u.Value == "" {
		r.errorf("proxy-server-host-invalid", w.obj.ref(), w.flags.fieldOr("proxy-server-host", w.field+".args"), fix,
			"--proxy-server-host is missing; agents would dial %s, their own node", anp.Agent.Default("proxy-server-host"))
		return
	}
	if ip := net.ParseIP(u.Value); ip != nil {
		if ip.IsLoopback() || ip.IsUnspecified() {
			r.errorf("proxy-server-host-invalid", w.obj.ref(), u.Field, fix,
				"--proxy-server-host=%s is not the bootstrap node: agents on cluster nodes would dial themselves", u.Value)
		}
		return
	}
	if !validDNSName(u.Value) {
		r.errorf("proxy-server-host-invalid", w.obj.ref(), u.Field, fix,
			"--proxy-server-host=%q is neither an IP address nor a DNS name (IPv6 needs no brackets)", u.Value)
	}
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
