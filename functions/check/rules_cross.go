package check

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// checkCross: values two objects must agree on (mode-protocol-mismatch,
// agent-port-mismatch, proxy-server-host-mismatch, namespace-mismatch,
// agent-namespace-reserved, bootstrap-only-label-missing).
func checkCross(b *bundlemodel.Bundle, _ Options, r *report) {
	checkModeProtocol(b, r)
	checkAgentPort(b, r)
	checkBindAddress(b, r)
	checkNamespaces(b, r)
	checkLabels(b, r)
}

// protocolForMode is the egress proxyProtocol each server --mode speaks.
var protocolForMode = map[string]egressconfig.ProtocolType{
	proxyversion.ModeHTTPConnect: egressconfig.ProtocolHTTPConnect,
	proxyversion.ModeGRPC:        egressconfig.ProtocolGRPC,
}

func checkModeProtocol(b *bundlemodel.Bundle, r *report) {
	cfg := loadEgress(b)
	if b.Server == nil || cfg == nil {
		return
	}
	sel, i := cfg.Cluster()
	mode := b.Server.Flags.ValueOr("mode")
	want, known := protocolForMode[mode]
	if sel == nil || !known || sel.Connection.ProxyProtocol == egressconfig.ProtocolDirect || sel.Connection.ProxyProtocol == want {
		return
	}
	r.errorf("mode-protocol-mismatch", b.Egress.Ref(), fmt.Sprintf("egressSelections[%d].connection.proxyProtocol", i),
		fmt.Sprintf("set proxyProtocol: %s, or change the server's --mode", want),
		"the cluster selection speaks %s but the server runs --mode=%s, which expects %s", sel.Connection.ProxyProtocol, mode, want)
}

func checkAgentPort(b *bundlemodel.Bundle, r *report) {
	if b.Server == nil || b.Agent == nil {
		return
	}
	sp, ok1 := b.Server.Flags.Int("agent-port")
	ap, ok2 := b.Agent.Flags.Int("proxy-server-port")
	if !ok1 || !ok2 || sp == ap {
		return
	}
	r.errorf("agent-port-mismatch", b.Agent.Object.Ref(), b.Agent.Flags.FieldOr("proxy-server-port", b.Agent.Field+".args"),
		fmt.Sprintf("set --proxy-server-port=%d", sp),
		"agents dial port %d but the server listens for agents on --agent-port=%d", ap, sp)
}

// checkBindAddress: a server bound to one address is only reachable there.
func checkBindAddress(b *bundlemodel.Bundle, r *report) {
	if b.Server == nil || b.Agent == nil {
		return
	}
	bind, host := b.Tunnel.Bind, b.Tunnel.Addr
	if b.Tunnel.BindText != "" && !bind.IsValid() {
		// proxy-server binds to the text as given: a zoned, padded or named
		// address listens on one interface or fails, never on every address.
		r.errorf("agent-bind-address-invalid", b.Server.Object.Ref(), b.Tunnel.BindField,
			"set --agent-bind-address to the bootstrap IP the agents dial, or drop it to listen on every address",
			"--agent-bind-address=%q is not an IP address (no zone, no leading zeros, no name)", b.Tunnel.BindText)
		return
	}
	if !bind.IsValid() || !host.IsValid() || bind.IsUnspecified() || bind == host {
		return
	}
	r.errorf("proxy-server-host-mismatch", b.Agent.Object.Ref(), b.Tunnel.HostField,
		fmt.Sprintf("set --proxy-server-host=%s, or drop the server's --agent-bind-address", bind),
		"agents dial %s but the server accepts agents only on --agent-bind-address=%s", host, bind)
}

func checkNamespaces(b *bundlemodel.Bundle, r *report) {
	if b.Agent == nil {
		return
	}
	ns := b.Agent.Object.Namespace
	if why := bundlev1.ReservedNamespace(ns); why != "" {
		r.errorf("agent-namespace-reserved", b.Agent.Object.Ref(), "metadata.namespace", bundlev1.ReservedNamespaceFix,
			"the agents' namespace %s: teardown deletes it with everything in it", why)
	}
	if b.Namespace != nil && b.Namespace.Name != ns {
		r.errorf("namespace-mismatch", b.Agent.Object.Ref(), "metadata.namespace",
			fmt.Sprintf("put the agents in namespace %s", b.Namespace.Name),
			"the agents are in namespace %q but the bundle creates namespace %q (and teardown deletes only that one)", ns, b.Namespace.Name)
	}
	if b.Secret != nil && b.Secret.Namespace != ns {
		r.errorf("namespace-mismatch", b.Secret.Ref(), "metadata.namespace",
			fmt.Sprintf("put the Secret in the agents' namespace %s", ns),
			"the Secret is in namespace %q but a pod can only mount a Secret of its own namespace %q", b.Secret.Namespace, ns)
	}
}

// checkLabels: teardown and audits find bootstrap-only objects by label.
func checkLabels(b *bundlemodel.Bundle, r *report) {
	var objs []*bundlemodel.Object
	for _, w := range []*bundlemodel.Workload{b.Server, b.Agent} {
		if w != nil {
			objs = append(objs, w.Object)
		}
	}
	for _, o := range []*bundlemodel.Object{b.Namespace, b.Secret} {
		if o != nil {
			objs = append(objs, o)
		}
	}
	for _, o := range objs {
		if o.Labels[hostlayout.LabelBootstrapOnly] != "true" {
			r.warnf("bootstrap-only-label-missing", o.Ref(), "metadata.labels",
				fmt.Sprintf("add the label %s: \"true\"", hostlayout.LabelBootstrapOnly),
				"the object is not labelled %s=true, so it is not recognisable as bootstrap-only", hostlayout.LabelBootstrapOnly)
		}
	}
}
