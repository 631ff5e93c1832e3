// Package statusreport is what the status command does and reports: an
// interrupted run recovered first (the host transaction status starts),
// then the host's checks (hoststatus), the kubeconfig it read (or why
// none), the node side when agents are missing (gate, nodeverdict) and
// what used the tunnel (usage), combined in one report with its text, its
// JSON and the files --gather writes.
package statusreport

import (
	"context"
	"io"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gate"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gather"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/nodeverdict"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/usage"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
)

// Options are what status reads: the host, and the cluster through
// Cluster (nil: not read, for the reason Choice gives).
type Options struct {
	Host    hoststatus.Options
	Choice  kuberead.Choice
	Cluster *kuberead.Reader
	// Usage asks for the usage report: where it is shown (text, with a
	// cluster) or written (--gather).
	Usage bool
	// Hold, when set, marks the recovery of an interrupted run as a host
	// change under way, which the caller's deadline never abandons.
	Hold func() (release func(), err error)
	// TimeoutFlag names Host.Timeout where it bounds the lock wait.
	TimeoutFlag string
	// Notes is where the recovery is said as soon as it is done (stderr).
	Notes io.Writer
}

// Report is status's report: the host's, the kubeconfig read, then the
// node side when there is one (in text under the checks, in JSON as
// "nodes"), then in text the usage table when it was read.
type Report struct {
	Host  *hoststatus.Report
	Kube  kuberead.Used
	Nodes *nodeverdict.Report
	Use   *usage.Report
}

// Run recovers an interrupted run first (recover), then reads the host,
// the node side and the usage report, each read within ctx. Its error is
// a recovery that failed: nothing was read then.
func Run(ctx context.Context, o Options) (*Report, error) {
	if err := o.recover(); err != nil {
		return nil, err
	}
	rep := &Report{Host: hoststatus.Run(ctx, o.Host)}
	rep.Nodes = nodes(ctx, rep.Host, o.Choice, o.Cluster)
	if o.Usage {
		rep.Use = usage.Collect(ctx, usage.Options{Cluster: o.Cluster, NoCluster: o.Choice.String(), Status: rep.Host})
	}
	rep.Kube = kuberead.Summary(o.Choice, o.Cluster)
	return rep, nil
}

// recover finishes or undoes what an interrupted run left under the root
// (hosttxn.RecoverPending), so status reports a host render can explain,
// and says how on Notes.
func (o Options) recover() error {
	release := func() {}
	if o.Hold != nil {
		var err error
		if release, err = o.Hold(); err != nil {
			return err
		}
	}
	recovered, err := hosttxn.RecoverPending(o.Host.Root, o.Host.Timeout, o.TimeoutFlag)
	release()
	if err != nil {
		return err
	}
	if o.Notes != nil {
		hosttxn.WriteCleanup(o.Notes, recovered, nil)
	}
	return nil
}

// nodes is the node side status shows: with a cluster reader, when fewer
// agents are connected than nodes should run one; without, when none is
// (then only why it is not seen: choice says). Nil when it is not shown.
func nodes(ctx context.Context, rep *hoststatus.Report, choice kuberead.Choice, cluster *kuberead.Reader) *nodeverdict.Report {
	if cluster == nil {
		if rep.Agents > 0 {
			return nil
		}
		return nodeverdict.Unseeable(choice.String() + "; " + gate.NodeSideNeeds)
	}
	nodes := gate.NodeSide(ctx, nodeverdict.Over(cluster), rep, "", time.Now())
	if nodes.Seen && rep.Agents >= max(1, nodes.Wanted()) {
		return nil
	}
	return nodes
}

// WriteText writes the checks, the kubeconfig, the nodes and the usage table.
func (s *Report) WriteText(w io.Writer) error {
	if err := s.Host.WriteText(w); err != nil {
		return err
	}
	if err := s.Kube.WriteText(w); err != nil {
		return err
	}
	if s.Nodes != nil {
		if err := s.Nodes.WriteText(w); err != nil {
			return err
		}
	}
	return s.Use.WriteAfter(w)
}

// JSONDocument is the host's report with the kubeconfig read and "nodes"
// when there is a node side; the usage report has a file of its own
// (usage.json).
func (s *Report) JSONDocument() any {
	return struct {
		*hoststatus.Report
		Checks     []hoststatus.CheckJSON `json:"checks"`
		Kubeconfig kuberead.Used          `json:"kubeconfig"`
		Nodes      *nodeverdict.Report    `json:"nodes,omitempty"`
	}{s.Host, hoststatus.ChecksJSON(s.Host), s.Kube, s.Nodes}
}

// Gather writes the report as JSON, the server's metrics and the usage
// report into dir, each file atomically.
func (s *Report) Gather(dir string) error {
	files := gather.Files{}
	if err := files.AddJSON(gather.StatusFile, s); err != nil {
		return err
	}
	if s.Host.Metrics != "" {
		files[gather.MetricsFile] = []byte(s.Host.Metrics)
	}
	if err := files.AddJSON(gather.UsageFile, s.Use); err != nil {
		return err
	}
	d, err := gather.Open(dir)
	if err != nil {
		return err
	}
	return d.Write(files)
}
