// Package gate waits, on the bootstrap host, until the Konnectivity tunnel
// can carry the kube-apiserver's webhook calls: the server is healthy,
// enough agents are connected, and a test dial through the socket succeeds.
// Every poll is one `status` run (internal/diagnostics/hoststatus) and one `probe` of
// each target (internal/diagnostics/egressprobe, internal/diagnostics/webhookprobe), so the gate
// and status give the same verdicts from the same code; on a timeout the
// gate names the one cause that is still in the way and its fix.
package gate

import (
	"context"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/nodeverdict"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
)

// Options say what to wait for and how long.
type Options struct {
	// Status is how each poll runs `status`: root, health host, dialer.
	Status hoststatus.Options
	// MinAgents is how many agents must be connected; 0 means 1.
	MinAgents int
	// Targets are host:port or URLs dialed through the socket (--target).
	Targets []string
	// Cluster, when set, lists the Service-backed webhooks and APIServices
	// to dial, as `probe --webhooks` does.
	Cluster         *kuberead.Reader
	EndpointRouting bool
	// Timeout is the whole wait; Interval the pause between polls.
	Timeout, Interval time.Duration
	// DialTimeout bounds each test dial; 0 = 5s.
	DialTimeout time.Duration
	// Nodes, when set, reads the node side (internal/diagnostics/nodeverdict) while
	// fewer than MinAgents agents are connected; nil = no kubeconfig.
	Nodes nodeverdict.Reader
	// NoNodes is why Nodes is nil, as the verdict says it (the kubeconfig
	// lookup's answer, internal/intake/kuberead.Find); "" = noKubeconfig.
	NoNodes string
	// ServerLog is the server's log, read for refused agent handshakes
	// while no agent is connected; "" = the kubelet's log under the root.
	ServerLog string
	// Progress, when set, is told what the gate is waiting for.
	Progress func(Progress)
	Now      func() time.Time
	// Started is when the wait began: the command's start, so what came
	// before the first poll (a kubeconfig's exec plugin) counts toward
	// Timeout, as it does toward the command's own --timeout. Zero is
	// when Wait is called.
	Started time.Time
}

// Progress is one line of "still waiting".
type Progress struct {
	Waiting string        `json:"waiting"` // what for
	Detail  string        `json:"detail"`
	Elapsed time.Duration `json:"elapsed"` // spent since the wait began
	Timeout time.Duration `json:"timeout"` // the whole wait (--timeout): its deadline
	// Repeats counts the lines printed before this one in its run: the
	// reports in a row that said the same (Waiting and Detail). A repeat
	// is said as one short line with the count, never the same error again.
	Repeats int `json:"repeats,omitempty"`
}

func (o *Options) defaults() {
	if o.MinAgents <= 0 {
		o.MinAgents = 1
	}
	if o.Interval <= 0 {
		o.Interval = 200 * time.Millisecond
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 5 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Status.Timeout == 0 {
		o.Status.Timeout = 2 * time.Second
	}
}

// Wait polls until the tunnel is ready or opts.Timeout passes, and returns
// the last poll's verdict (Ready or the cause in the way). The poll under
// way when the timeout passes runs to its end (pollBudget), so the wait
// may last that much longer: a test dial or a rate-limited list of webhooks
// cut short by the deadline would report the deadline, not the tunnel.
func Wait(ctx context.Context, opts Options) *Verdict {
	opts.defaults()
	start := opts.Started
	if start.IsZero() {
		start = opts.Now()
	}
	deadline := start.Add(opts.Timeout)
	w := &waiter{opts: opts, start: start}
	var last *Verdict // the last poll that ran to its end
	for {
		// Every poll, not only the last, ends at its budget: a read that
		// never answers would otherwise hold the first poll, and the
		// progress lines, until the deadline.
		pctx, cancel := context.WithTimeout(ctx, opts.pollBudget())
		v := w.poll(pctx)
		cancel()
		now := opts.Now()
		v.Waited = now.Sub(start)
		if ctx.Err() != nil {
			return w.finish(stopped(ctx, v, last, now.Sub(start)))
		}
		if v.Ready || !now.Before(deadline) {
			return w.finish(v)
		}
		w.report(v)
		last = v
		select {
		case <-ctx.Done():
			return w.finish(stopped(ctx, v, last, opts.Now().Sub(start)))
		case <-time.After(min(opts.Interval, deadline.Sub(now))):
		}
	}
}

// stopped is the verdict of a wait its caller stopped (Ctrl-C): the last
// poll that ran to its end, since one cut short says only that it was,
// marked with why it stopped.
func stopped(ctx context.Context, v, last *Verdict, waited time.Duration) *Verdict {
	if last != nil && !v.Ready {
		v = last
	}
	v.Waited, v.Stopped = waited, context.Cause(ctx).Error()
	return v
}

// Overrun is how long past opts.Timeout a Wait may run: the poll under
// way when the timeout passes runs to its end. A command's whole-run
// deadline is the timeout plus this.
func Overrun(opts Options) time.Duration {
	opts.defaults()
	return opts.pollBudget()
}

// pollBudget is the least time one poll is given: one test dial, the
// wait for an agent's late answer to one that got none and a second status
// run (judgedial.go), and room for the kube-apiserver client's rate limiter
// (5 requests/s by default; a poll lists three kinds and reads two objects
// per target).
func (o *Options) pollBudget() time.Duration {
	return max(o.DialTimeout, settleTime) + 2*o.Status.Timeout + 10*time.Second
}

// waiter is one wait's memory across polls.
type waiter struct {
	opts      Options
	start     time.Time
	maxAgents int   // the most agents seen connected at once
	last      Cause // the last progress line's cause, to print changes
	lastAt    time.Time
	fold      fold                // the progress lines' runs, folded into counts
	nodes     *nodeverdict.Report // the last read of the node side
	nodesAt   time.Time
}

// poll runs status, then the targets when the tunnel itself is up.
func (w *waiter) poll(ctx context.Context) *Verdict {
	rep := hoststatus.Run(ctx, w.opts.Status)
	w.maxAgents = max(w.maxAgents, rep.Agents)
	v := fromStatus(rep, w.opts.MinAgents, w.maxAgents)
	if r, ok := rowOf(v.Cause); ok && r.readsLog {
		w.refusedHandshakes(v)
	}
	if rep.Agents < w.opts.MinAgents {
		w.nodeSide(ctx, v, rep)
	}
	if v.Cause != "" {
		return v
	}
	w.dialTargets(ctx, v)
	return v
}

// report calls Progress when the cause changes, and every 5s otherwise.
func (w *waiter) report(v *Verdict) {
	if w.opts.Progress == nil {
		return
	}
	now := w.opts.Now()
	if v.Cause == w.last && now.Sub(w.lastAt) < 5*time.Second {
		return
	}
	w.last, w.lastAt = v.Cause, now
	w.fold.begin()
	defer w.fold.end()
	same := w.say(Progress{Waiting: v.waitingFor(), Detail: v.Detail, Elapsed: now.Sub(w.start)}, true)
	if v.Nodes != nil { // a node side as unchanged as the cause adds no line
		w.say(Progress{Waiting: "agents, per node", Detail: v.Nodes.Brief(), Elapsed: now.Sub(w.start)}, !same)
	}
}

// finish gives a verdict that is not ready the count of the progress
// lines that said it in a row up to the end: a wait that ends during a run
// of repeats says how often, as a folded line would have.
func (w *waiter) finish(v *Verdict) *Verdict {
	if n := w.fold.said(v.waitingFor(), v.Detail); !v.Ready && n > 1 {
		v.Said = n
	}
	return v
}

// say hands p to Progress unless told not to emit a repeat: an
// unreachable kube-apiserver's error, repeated every 5s, is said once and
// then counted (fold). It reports whether p repeated the report before.
func (w *waiter) say(p Progress, emit bool) bool {
	p.Timeout = w.opts.Timeout
	p, repeated, printed := w.fold.line(p, emit)
	if printed {
		w.opts.Progress(p)
	}
	return repeated
}
