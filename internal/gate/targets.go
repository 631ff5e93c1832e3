package gate

import (
	"context"
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/webhookprobe"
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
	var version *anp.Version
	if v.Status != nil && v.Status.Rendered != nil {
		version = v.Status.Rendered.Bundle.Target.Version
	}
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
			v.apply(stageRow(stageTestDial), finding{rep: v.Status, detail: fmt.Sprintf("%s (%s): %s: %s", t.Name, t.Address, t.Outcome, t.Detail), outcome: t.Outcome})
			if t.Outcome == webhookprobe.Timeout {
				w.nameStuckAgent(ctx, v)
			}
			return
		}
	}
	v.Ready = true
}

// nameStuckAgent reads the server's pending dials after a dial that got no
// answer: dials the server handed to an agent and never heard back about
// mean an agent that is frozen or cut off mid-stream, not a target the
// pod network cannot reach. A server without --backend-dial-timeout (proxy
// v0.28) keeps them until each caller gives up, so this is how wait names
// such an agent there.
func (w *waiter) nameStuckAgent(ctx context.Context, v *Verdict) {
	rep := hoststatus.Run(ctx, w.opts.Status)
	if rep.PendingDials <= 0 || rep.Rendered == nil {
		return
	}
	v.Detail += fmt.Sprintf("; the server holds %d dial(s) an agent took and never answered (pending_backend_dials)", rep.PendingDials)
	v.Fix = "an agent is frozen or cut off from the bootstrap host mid-stream: find it (`oc -n openshift-bootstrap-konnectivity get pods -o wide`; its node is NotReady or its logs stop) and delete its pod"
	if ver := rep.Rendered.Bundle.Target.Version; ver != nil && !ver.Has("backend-dial-timeout") {
		v.Fix += fmt.Sprintf("; proxy %s has no --backend-dial-timeout, so every dial handed to that agent waits for the caller's own timeout", ver)
	}
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
