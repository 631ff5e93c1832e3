package check

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// checkHealthBind: the server's probes must reach the address its health
// server binds. With --health-bind-address=127.0.0.1 (what the generator
// writes, so nothing off the host reaches the port) a probe whose host is
// the node's address, or empty (the kubelet then uses the pod IP, the
// node's address on the host network), can never connect.
func checkHealthBind(b *bundlemodel.Bundle, _ Options, r *report) {
	w := b.Server
	if w == nil {
		return
	}
	bind, ok := w.Flags.Get("health-bind-address")
	if !ok || bind.Value == "" {
		return // every address
	}
	if ip, ok := bootstrapip.ParseAddr(bind.Value); ok && ip.IsUnspecified() {
		return
	}
	for _, p := range probes(w) {
		if p.probe == nil || p.probe.HTTPGet == nil {
			continue
		}
		host := p.probe.HTTPGet.Host
		if sameHost(host, bind.Value) {
			continue
		}
		shown := host
		if shown == "" {
			shown = "the pod IP (no host set), the node's address on the host network"
		}
		r.errorf("probe-host-unbound", w.Object.Ref(), p.field+".httpGet.host",
			"set the probe's host to "+bind.Value+", or drop --health-bind-address",
			"the probe connects to %s but the health server binds only --health-bind-address=%s; the probe can never pass", shown, bind.Value)
	}
}

func sameHost(a, b string) bool {
	x, okx := bootstrapip.ParseAddr(a)
	y, oky := bootstrapip.ParseAddr(b)
	if okx && oky {
		return x == y
	}
	return a == b
}
