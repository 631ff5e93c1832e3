package gate

import (
	"context"
	"fmt"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/nodeverdict"
)

// nodesEvery is the least time between two reads of the node side: four
// requests each, under the client's default 5 requests/s, so a 200ms poll
// never queues behind its own reads of the kube-apiserver.
const nodesEvery = time.Second

// noKubeconfig is why the node side is not seen without a kubeconfig,
// when the caller gives no reason of its own (Options.NoNodes).
const noKubeconfig = "no kubeconfig; " + NodeSideNeeds

// NodeSideNeeds says what a kubeconfig would read, after why none is.
const NodeSideNeeds = "the agents' DaemonSet, pods, events and nodes are read through the bootstrap kube-apiserver with one"

// NodeSide reads, through c, why each node's agent is not connected, with
// the refused handshakes of the server's log (serverLog, else the
// kubelet's log under the status run's root), and holds every ready pod to
// the status run's own agent count (nodeverdict's confirm). A nil c, or a root that
// could not be read, gives a report saying the node side is not seen and
// why.
func NodeSide(ctx context.Context, c nodeverdict.Reader, rep *hoststatus.Report, serverLog string, now time.Time) *nodeverdict.Report {
	if c == nil {
		return nodeverdict.Unseeable(noKubeconfig)
	}
	if rep.Rendered == nil {
		return nodeverdict.Unseeable("the rendered root could not be read, so the agent DaemonSet is not known (see the checks above)")
	}
	in, err := nodeverdict.InputFrom(rep.Rendered.Bundle)
	if err != nil {
		return nodeverdict.Unseeable(err.Error())
	}
	in.Root, in.Now = rep.Root, now
	// A pod's Ready is the kubelet's word; the server's own count is what
	// confirms a connection.
	in.Server = nodeverdict.Server{Down: rep.ServerDown(), Agents: rep.Agents, Counted: rep.AgentsCounted}
	_, lines, read, _ := serverHandshakes(rep.Root, serverLog)
	in.LogRead = read
	for _, l := range lines {
		if h, ok := nodeverdict.ParseHandshake(l); ok {
			in.Refused = append(in.Refused, h)
		}
	}
	return nodeverdict.Judge(ctx, c, in)
}

// nodeSide adds the node side to a verdict with fewer agents than wanted,
// read at most every nodesEvery; its summary's fix replaces the server
// side's guess.
func (w *waiter) nodeSide(ctx context.Context, v *Verdict, rep *hoststatus.Report) {
	now := w.opts.Now()
	if w.nodes == nil || now.Sub(w.nodesAt) >= nodesEvery {
		w.nodes, w.nodesAt = NodeSide(ctx, w.opts.Nodes, rep, w.opts.ServerLog, now), now
		if w.opts.Nodes == nil && w.opts.NoNodes != "" {
			w.nodes = nodeverdict.Unseeable(w.opts.NoNodes + "; " + NodeSideNeeds)
		}
	}
	v.Nodes = w.nodes
	if r, ok := rowOf(v.Cause); ok && r.nodeFix && v.Nodes.Summary != nil {
		s := v.Nodes.Summary // the cause most nodes share
		v.Detail += fmt.Sprintf("; most nodes not connected: %s (%d of %d), %s", s.Cause, s.Nodes, s.Of, s.Detail)
		v.Fix = s.Fix
	}
}
