package cli

import (
	"context"
	"io"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gate"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/nodeverdict"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/usage"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
)

// statusNodes is the node side status shows: with a cluster reader, when
// fewer agents are connected than nodes should run one; without, when
// none is (then only why it is not seen: choice says). Nil when it is not
// shown.
func statusNodes(ctx context.Context, rep *hoststatus.Report, choice kuberead.Choice, cluster *kuberead.Reader) *nodeverdict.Report {
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

// statusReport is what status writes: the host's report, the kubeconfig
// read (or why none), then the node side when there is one (in text
// under the checks, in JSON as "nodes"), then in text the usage table
// when it was read.
type statusReport struct {
	host  *hoststatus.Report
	kube  kuberead.Used
	nodes *nodeverdict.Report
	use   *usage.Report
}

// WriteText writes the checks, the kubeconfig, the nodes and the usage table.
func (s statusReport) WriteText(w io.Writer) error {
	if err := s.host.WriteText(w); err != nil {
		return err
	}
	if err := s.kube.WriteText(w); err != nil {
		return err
	}
	if s.nodes != nil {
		if err := s.nodes.WriteText(w); err != nil {
			return err
		}
	}
	if s.use == nil {
		return nil
	}
	return printUsage(w, s.use)
}

// JSONDocument is the host's report with the kubeconfig read and "nodes"
// when there is a node side; the usage report has a file of its own
// (usage.json).
func (s statusReport) JSONDocument() any {
	return struct {
		*hoststatus.Report
		Checks     []hoststatus.CheckJSON `json:"checks"`
		Kubeconfig kuberead.Used          `json:"kubeconfig"`
		Nodes      *nodeverdict.Report    `json:"nodes,omitempty"`
	}{s.host, hoststatus.ChecksJSON(s.host), s.kube, s.nodes}
}
