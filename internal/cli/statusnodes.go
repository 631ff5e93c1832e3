package cli

import (
	"context"
	"io"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/gate"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/nodeverdict"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/usage"
)

// statusNodes is the node side status shows: with a kubeconfig, when fewer
// agents are connected than nodes should run one; without, when none is
// (then only why it is not seen). Nil when it is not shown. Only an
// unusable kubeconfig is an error.
func statusNodes(ctx context.Context, rep *hoststatus.Report, kubeconfig string) (*nodeverdict.Report, error) {
	if kubeconfig == "" {
		if rep.Agents > 0 {
			return nil, nil
		}
		return nodeverdict.Unseeable(gate.NoKubeconfig), nil
	}
	c, err := nodeverdict.Client(kubeconfig)
	if err != nil {
		return nil, Usagef("--kubeconfig: %v", err)
	}
	nodes := gate.NodeSide(ctx, c, rep, "", time.Now())
	if nodes.Seen && rep.Agents >= max(1, nodes.Wanted()) {
		return nil, nil
	}
	return nodes, nil
}

// statusReport is what status writes: the host's report, then the node
// side when there is one (in text under the checks, in JSON as "nodes"),
// then in text the usage table when it was read.
type statusReport struct {
	host  *hoststatus.Report
	nodes *nodeverdict.Report
	use   *usage.Report
}

// WriteText writes the checks, the nodes and the usage table.
func (s statusReport) WriteText(w io.Writer) error {
	if err := s.host.WriteText(w); err != nil {
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

// JSONDocument is the host's report with "nodes" when there is a node side;
// the usage report has a file of its own (usage.json).
func (s statusReport) JSONDocument() any {
	return struct {
		*hoststatus.Report
		Checks []hoststatus.CheckJSON `json:"checks"`
		Nodes  *nodeverdict.Report    `json:"nodes,omitempty"`
	}{s.host, hoststatus.ChecksJSON(s.host), s.nodes}
}
