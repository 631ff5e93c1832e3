package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/usage"
)

// usageHelp is what teardown's and status's --help say about the report.
const usageHelp = `The usage report lists each admission webhook and APIService the bootstrap
kube-apiserver called (route "tunnel" for those registered by Service, which
the tunnel carries), with calls, allowed, refused, failed and latency, from
the kube-apiserver's /metrics (read with the kubeconfig), and the dial totals
of its egress dialer and of the proxy-server (its admin port). Counts run
from each process's start. A side that cannot be read is named in the
report with the reason; that is not an error (docs/troubleshooting.md).`

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
