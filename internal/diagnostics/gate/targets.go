package gate

import (
	"context"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/webhookprobe"
)

// Target is one test dial through the socket and how it ended, in
// `probe`'s words.
type Target struct {
	Name    string               `json:"name"` // --target as given, or the webhook/APIService
	Address string               `json:"address,omitempty"`
	Outcome webhookprobe.Outcome `json:"outcome"`
	Detail  string               `json:"detail,omitempty"`
}

// dialTargets dials every --target and, with a cluster, every
// Service-backed webhook and APIService, exactly as `probe` does. The
// first one not reached makes the verdict TargetUnreachable.
func (w *waiter) dialTargets(ctx context.Context, v *Verdict) {
	// The poll's status run already read the root's proxy version, which
	// decides what a CONNECT's answer proves; the probes need not read it again.
	version := v.Status.Tunnel().Version
	for _, t := range w.opts.Targets {
		res, err := egressprobe.Probe(ctx, egressprobe.Options{Root: w.opts.Status.Root, Target: t, Timeout: w.opts.DialTimeout, Version: version})
		if err != nil { // a bad --target is refused before the wait starts
			v.Targets = append(v.Targets, Target{Name: t, Outcome: webhookprobe.Failed, Detail: err.Error()})
			continue
		}
		v.Targets = append(v.Targets, Target{Name: t, Address: res.Address, Outcome: webhookprobe.Classify(res),
			Detail: strings.TrimSpace(res.Error + " " + res.ProxyBody)})
	}
	if w.opts.Cluster != nil {
		rs, err := webhookprobe.Run(ctx, w.opts.Cluster, webhookprobe.Options{Root: w.opts.Status.Root, EndpointRouting: w.opts.EndpointRouting, Timeout: w.opts.DialTimeout, Version: version})
		if err != nil {
			v.Targets = append(v.Targets, Target{Name: "webhooks and APIServices", Outcome: webhookprobe.Failed, Detail: "listing them: " + err.Error()})
		}
		for _, r := range rs {
			v.Targets = append(v.Targets, Target{Name: targetName(r.Target), Address: r.Address, Outcome: r.Outcome, Detail: r.Detail})
		}
	}
	for _, t := range v.Targets {
		if t.Outcome != webhookprobe.Reachable {
			w.judgeDial(ctx, v, t)
			return
		}
	}
	v.Ready = true
}

func targetName(t webhookprobe.Target) string {
	name := t.Kind + " " + t.Name
	if t.Webhook != "" {
		name += " webhook " + t.Webhook
	}
	return name + " -> " + t.Service
}

// targetFix says where to look for each way a dial through a working
// tunnel fails.
func targetFix(o webhookprobe.Outcome) string {
	switch o {
	case webhookprobe.Refused:
		return "the agent reached the address but nothing listens: the target's pod is not running or the Service's port is wrong (`oc get endpointslices -A`)"
	case webhookprobe.Timeout:
		return "no answer through the tunnel: the agents' nodes cannot reach the address (pod network, NetworkPolicy) or an agent is stuck; `konnectivity-bundle probe TARGET` shows the proxy's own error"
	case webhookprobe.NoAgent:
		return "the server had no agent for the request: see konnectivity-bundle status"
	case webhookprobe.Unresolved:
		return "the Service has no address to dial: create its endpoints, or wait for its pods"
	}
	return "konnectivity-bundle probe TARGET shows the whole error"
}
