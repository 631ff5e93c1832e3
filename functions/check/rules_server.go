package check

import (
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// checkServerFlags applies the flag rules proxy-server enforces at start.
func checkServerFlags(b *bundlemodel.Bundle, opts Options, r *report) {
	w := b.Server
	if w == nil {
		return
	}
	checkFlagSyntax(w, r)
	checkServerMode(w, r)
	checkServerUDS(w, r)
	checkClusterTLS(w, opts, r)
	checkStrategies(w, r)
	checkServerHostNetwork(w, r)
	checkProtections(w, r)
	checkTLSProfile(w, r)
}

func checkServerMode(w *bundlemodel.Workload, r *report) {
	mode := w.Flags.ValueOr("mode")
	if !w.Flags.Binary.Flags["mode"].Allows(mode) {
		r.errorf("flag-value-invalid", w.Object.Ref(), w.Flags.FieldOr("mode", w.Field+".args"),
			"set --mode=http-connect (egress proxyProtocol HTTPConnect) or --mode=grpc (GRPC)",
			"--mode must be grpc or http-connect, not %q", mode)
	}
}

// checkServerUDS: the KAS-facing side is either a UDS or TCP with TLS.
func checkServerUDS(w *bundlemodel.Workload, r *report) {
	f, ref, args := w.Flags, w.Object.Ref(), w.Field+".args"
	if f.Value("uds-name") == "" {
		if f.Value("server-ca-cert") == "" {
			r.errorf("server-ca-cert-required", ref, args,
				"set --uds-name to the socket the KAS dials (with --server-port=0), or give --server-ca-cert, --server-cert and --server-key",
				"without --uds-name the server listens on TCP for the KAS and needs --server-ca-cert (proxy-server: server ca cert must be set when in TCP mode)")
		}
		return
	}
	if port, ok := f.Int("server-port"); ok && port != 0 {
		r.errorf("server-port-with-uds", ref, f.FieldOr("server-port", args),
			"set --server-port=0; agents connect to --agent-port, not --server-port",
			"--server-port is %d but must be 0 with --uds-name (proxy-server: server port should be set to 0 not %d for UDS)", port, port)
	}
	for _, name := range []string{"server-cert", "server-key", "server-ca-cert"} {
		if u, ok := f.Get(name); ok && u.Value != "" {
			r.errorf("server-cert-with-uds", ref, u.Field,
				"remove --"+name+"; the UDS needs no TLS and the agent-facing certificate is --cluster-cert/--cluster-key",
				"--%s is not allowed with --uds-name (proxy-server: %s should not be set for UDS)", name, strings.ReplaceAll(name[len("server-"):], "-", " "))
		}
	}
}

// checkClusterTLS: the agent-facing listener's certificates and authentication.
func checkClusterTLS(w *bundlemodel.Workload, opts Options, r *report) {
	f, ref, args := w.Flags, w.Object.Ref(), w.Field+".args"
	for _, name := range []string{"cluster-cert", "cluster-key"} {
		if f.Value(name) == "" {
			r.errorf("cluster-cert-required", ref, f.FieldOr(name, args),
				"set --cluster-cert=/etc/konnectivity/server.crt and --cluster-key=/etc/konnectivity/server.key",
				"--%s is missing or empty; the agent listener cannot serve TLS without it", name)
		}
	}
	tokenFlags := []string{"agent-namespace", "agent-service-account", "authentication-audience"}
	token := false
	for _, name := range tokenFlags {
		token = token || f.Value(name) != ""
	}
	if !token {
		checkClusterCA(w, opts, r)
		return
	}
	for _, name := range append(tokenFlags, "kubeconfig") {
		if f.Value(name) == "" {
			r.errorf("token-auth-incomplete", ref, f.FieldOr(name, args),
				"give all of --agent-namespace, --agent-service-account, --authentication-audience and --kubeconfig, or none of them and --cluster-ca-cert instead",
				"token authentication is on (one of --%s is set) but --%s is missing", strings.Join(tokenFlags, ", --"), name)
		}
	}
	if u, ok := f.Get("cluster-ca-cert"); ok && u.Value != "" {
		r.errorf("token-auth-with-cluster-ca", ref, u.Field,
			"use certificate authentication (--cluster-ca-cert, no token flags) or token authentication, not both",
			"--cluster-ca-cert cannot be used with agent token authentication (proxy-server: --cluster-ca-cert can not be used when agent authentication is enabled)")
	}
}

func checkClusterCA(w *bundlemodel.Workload, opts Options, r *report) {
	if w.Flags.Value("cluster-ca-cert") != "" {
		return
	}
	sev := framework.Error
	if opts.AllowMissingClusterCA {
		sev = framework.Warning
	}
	r.add(sev, "cluster-ca-cert-missing", w.Object.Ref(), w.Flags.FieldOr("cluster-ca-cert", w.Field+".args"),
		"--cluster-ca-cert is missing: the server does not ask agents for a client certificate, so anyone who reaches the agent port can act as an agent",
		"set --cluster-ca-cert=/etc/konnectivity/ca.crt (or allow it explicitly with --allow-missing-cluster-ca)")
}

// checkStrategies: --proxy-strategies is a comma list of known strategies.
func checkStrategies(w *bundlemodel.Workload, r *report) {
	v := w.Flags.ValueOr("proxy-strategies")
	field := w.Flags.FieldOr("proxy-strategies", w.Field+".args")
	strategies := w.Flags.Strategies()
	for _, s := range strategies {
		if !proxyversion.IsProxyStrategy(s) {
			r.errorf("proxy-strategy-unknown", w.Object.Ref(), field, "use default, destHost or defaultRoute (case matters)",
				"unknown proxy strategy %q in --proxy-strategies=%s", s, v)
			return
		}
	}
	if len(strategies) == 0 {
		r.errorf("proxy-strategy-unknown", w.Object.Ref(), field, "set --proxy-strategies=default",
			"--proxy-strategies is empty (proxy-server: proxy strategies cannot be empty)")
	}
}

// firstStrategy is the strategy whose backend manager /readyz waits for.
func firstStrategy(w *bundlemodel.Workload) string {
	if s := w.Flags.Strategies(); len(s) > 0 {
		return s[0]
	}
	return ""
}

func checkServerHostNetwork(w *bundlemodel.Workload, r *report) {
	if w.Spec.HostNetwork {
		return
	}
	r.errorf("server-host-network", w.Object.Ref(), w.SpecField+".hostNetwork", "set hostNetwork: true on the server pod",
		"the server pod does not use the host network: agents dial the bootstrap node's IP on --agent-port, and the KAS static pod runs on the host network")
}
