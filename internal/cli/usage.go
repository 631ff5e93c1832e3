package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/usage"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
)

// collectUsage builds the usage report from a status run on the host and
// the kube-apiserver's metrics, read through cluster (nil: not read, for
// the reason choice gives), each read within the command's --timeout.
func collectUsage(ctx context.Context, st *hoststatus.Report, choice kuberead.Choice, cluster *kuberead.Reader) *usage.Report {
	return usage.Collect(ctx, usage.Options{Cluster: cluster, NoCluster: choice.String(), Status: st})
}

// printUsage writes the short table after a command's own output, a blank
// line between them.
func printUsage(w io.Writer, rep *usage.Report) error {
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return rep.WriteText(w)
}
