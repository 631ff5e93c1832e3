package check

import (
	"fmt"
	"net"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/egressconfig"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// checkCross: values two objects must agree on (mode-protocol-mismatch,
// agent-port-mismatch, proxy-server-host-mismatch, namespace-mismatch,
// agent-namespace-reserved, bootstrap-only-label-missing).
func checkCross(b *bundle, _ Options, r *report) {
	checkModeProtocol(b, r)
	checkAgentPort(b, r)
	checkBindAddress(b, r)
	checkNamespaces(b, r)
	checkLabels(b, r)
}

// protocolForMode is the egress proxyProtocol each server --mode speaks.
var protocolForMode = map[string]egressconfig.ProtocolType{
	anp.ModeHTTPConnect: egressconfig.ProtocolHTTPConnect,
	anp.ModeGRPC:        egressconfig.ProtocolGRPC,
}

func checkModeProtocol(b *bundle, r *report) {
	cfg := loadEgress(b)
	if b.server == nil || cfg == nil {
		return
	}
	sel, i := clusterSelection(cfg)
	mode := b.server.flags.valueOr("mode")
	want, known := protocolForMode[mode]
	if sel == nil || !known || sel.Connection.ProxyProtocol == egressconfig.ProtocolDirect || sel.Connection.ProxyProtocol == want {
		return
	}
	r.errorf("mode-protocol-mismatch", b.egress.ref(), fmt.Sprintf("egressSelections[%d].connection.proxyProtocol", i),
		fmt.Sprintf("set proxyProtocol: %s, or change the server's --mode", want),
		"the cluster selection speaks %s but the server runs --mode=%s, which expects %s", sel.Connection.ProxyProtocol, mode, want)
}

func checkAgentPort(b *bundle, r *report) {
	if b.server == nil || b.agent == nil {
		return
	}
	sp, ok1 := b.server.flags.intFlag("agent-port")
	ap, ok2 := b.agent.flags.intFlag("proxy-server-port")
	if !ok1 || !ok2 || sp == ap {
		return
	}
	r.errorf("agent-port-mismatch", b.agent.obj.ref(), b.agent.flags.fieldOr("proxy-server-port", b.agent.field+".args"),
		fmt.Sprintf("set --proxy-server-port=%d", sp),
		"agents dial port %d but the server listens for agents on --agent-port=%d", ap, sp)
}

// checkBindAddress: a server bound to one address is only reachable there.
func checkBindAddress(b *bundle, r *report) {
	if b.server == nil || b.agent == nil {
		return
	}
	bind := net.ParseIP(b.server.flags.value("agent-bind-address"))
	host := net.ParseIP(b.agent.flags.value("proxy-server-host"))
	if bind == nil || host == nil || bind.IsUnspecified() || bind.Equal(host) {
		return
	}
	r.errorf("proxy-server-host-mismatch", b.agent.obj.ref(), b.agent.flags.fieldOr("proxy-server-host", b.agent.field+".args"),
		fmt.Sprintf("set --proxy-server-host=%s, or drop the server's --agent-bind-address", bind),
		"agents dial %s but the server accepts agents only on --agent-bind-address=%s", host, bind)
}

func checkNamespaces(b *bundle, r *report) {
	if b.agent == nil {
		return
	}
	ns := b.agent.obj.ns
	if why := bundlev1.ReservedNamespace(ns); why != "" {
		r.errorf("agent-namespace-reserved", b.agent.obj.ref(), "metadata.namespace", bundlev1.ReservedNamespaceFix,
			"the agents' namespace %s: teardown deletes it with everything in it", why)
	}
	if b.namespace != nil && b.namespace.name != ns {
		r.errorf("namespace-mismatch", b.agent.obj.ref(), "metadata.namespace",
			fmt.Sprintf("put the agents in namespace %s", b.namespace.name),
			"the agents are in namespace %q but the bundle creates namespace %q (and teardown deletes only that one)", ns, b.namespace.name)
	}
	if b.secret != nil && b.secret.ns != ns {
		r.errorf("namespace-mismatch", b.secret.ref(), "metadata.namespace",
			fmt.Sprintf("put the Secret in the agents' namespace %s", ns),
			"the Secret is in namespace %q but a pod can only mount a Secret of its own namespace %q", b.secret.ns, ns)
	}
}

// checkLabels: teardown and audits find bootstrap-only objects by label.
func checkLabels(b *bundle, r *report) {
	var objs []*object
	for _, w := range []*workload{b.server, b.agent} {
		if w != nil {
			objs = append(objs, w.obj)
		}
	}
	for _, o := range []*object{b.namespace, b.secret} {
		if o != nil {
			objs = append(objs, o)
		}
	}
	for _, o := range objs {
		if o.labels[hostlayout.LabelBootstrapOnly] != "true" {
			r.warnf("bootstrap-only-label-missing", o.ref(), "metadata.labels",
				fmt.Sprintf("add the label %s: \"true\"", hostlayout.LabelBootstrapOnly),
				"the object is not labelled %s=true, so it is not recognisable as bootstrap-only", hostlayout.LabelBootstrapOnly)
		}
	}
}
