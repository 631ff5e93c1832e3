package webhookprobe

import (
	"context"
	"strings"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
)

// Outcome of dialing one target through the tunnel.
type Outcome string

// Outcomes: only NoAgent and Failed point at the tunnel itself.
const (
	Reachable  Outcome = "reachable"   // the TCP connection through the tunnel opened
	Refused    Outcome = "refused"     // the agent reached the address; nothing listens (pod not up)
	NoAgent    Outcome = "no agent"    // the server has no agent to send it to: the tunnel is down
	Timeout    Outcome = "timeout"     // no answer in time (a dropped route, or a slow agent)
	Unresolved Outcome = "no endpoint" // the Service has no address to dial
	Failed     Outcome = "failed"      // anything else, e.g. the socket is missing
)

// Result is one target's outcome.
type Result struct {
	Target
	Outcome Outcome `json:"outcome"`
	Detail  string  `json:"detail,omitempty"`
}

// Options say where the rendered root is and how to resolve Services.
type Options struct {
	Root            string
	EndpointRouting bool // kube-apiserver --enable-aggregator-routing
	Timeout         time.Duration
	// Version is the proxy the root was rendered for (egressprobe.Options);
	// nil reads it from the root.
	Version *proxyversion.Version
}

// Run lists, resolves and dials every target.
func Run(ctx context.Context, r *kuberead.Reader, opts Options) (Results, error) {
	targets, err := List(ctx, r)
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(targets))
	for _, t := range targets {
		if err := resolve(ctx, r, &t, opts.EndpointRouting); err != nil {
			out = append(out, Result{Target: t, Outcome: Unresolved, Detail: err.Error()})
			continue
		}
		res, err := egressprobe.Probe(ctx, egressprobe.Options{Root: opts.Root, Target: t.Address, Timeout: opts.Timeout, Version: opts.Version})
		if err != nil {
			out = append(out, Result{Target: t, Outcome: Failed, Detail: err.Error()})
			continue
		}
		out = append(out, Result{Target: t, Outcome: Classify(res), Detail: strings.TrimSpace(res.Error + " " + res.ProxyBody)})
	}
	return out, nil
}

// Classify reads a dial's error as the kube-apiserver would see it.
func Classify(r *egressprobe.Result) Outcome {
	text := r.Error + " " + r.ProxyBody
	switch {
	case r.OK:
		return Reachable
	case strings.Contains(text, "No agent available"):
		return NoAgent
	case strings.Contains(text, "connection refused"):
		return Refused
	case strings.Contains(text, "timeout") || strings.Contains(text, "deadline exceeded") || strings.Contains(text, "timed out"):
		return Timeout
	}
	return Failed
}
