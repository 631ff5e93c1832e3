package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/usage"
)

// collectUsage builds the usage report from a status run on the host and
// the kube-apiserver's metrics, each read within timeout (the command's
// --timeout). Only an unusable kubeconfig is an error.
func collectUsage(ctx context.Context, st *hoststatus.Report, kubeconfig string, timeout time.Duration) (*usage.Report, error) {
	return usage.Collect(ctx, usage.Options{Kubeconfig: kubeconfig, Status: st, Timeout: timeout})
}

// printUsage writes the short table after a command's own output, a blank
// line between them.
func printUsage(w io.Writer, rep *usage.Report) error {
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return rep.WriteText(w)
}
