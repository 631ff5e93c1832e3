package cli

import (
	"context"
	"io"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/gate"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/jsonout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/nodeverdict"
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

// writeStatus writes the report, then the node side when there is one: in
// text under the checks, in JSON as "nodes".
func writeStatus(w io.Writer, output string, rep *hoststatus.Report, nodes *nodeverdict.Report) error {
	if output == "json" {
		if nodes == nil {
			return hoststatus.WriteJSON(w, rep)
		}
		return jsonout.Write(w, struct {
			*hoststatus.Report
			Checks []hoststatus.CheckJSON `json:"checks"`
			Nodes  *nodeverdict.Report    `json:"nodes"`
		}{rep, hoststatus.ChecksJSON(rep), nodes})
	}
	if err := hoststatus.WriteText(w, rep); err != nil {
		return err
	}
	if nodes == nil {
		return nil
	}
	return nodes.WriteText(w, "")
}
