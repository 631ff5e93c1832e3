package usage

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/gather"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
)

// BeforeTeardown reads what used the tunnel while the server still runs
// and the cluster objects still exist (teardown reads it before it removes
// anything): the host under root, each read within timeout, and the
// kube-apiserver through cluster (nil: not read, for the reason choice
// gives). With gatherDir it writes usage.json there; the report returned
// is what could be read, to print even when writing it failed.
func BeforeTeardown(ctx context.Context, root string, choice kuberead.Choice, cluster *kuberead.Reader, gatherDir string, timeout time.Duration) (*Report, error) {
	st := hoststatus.Run(ctx, hoststatus.Options{Root: root, Timeout: timeout})
	use := Collect(ctx, Options{Cluster: cluster, NoCluster: choice.String(), Status: st})
	if gatherDir == "" {
		return use, nil
	}
	files := gather.Files{}
	if err := files.AddJSON(gather.UsageFile, use); err != nil {
		return use, fmt.Errorf("%s was not written: %w", filepath.Join(gatherDir, gather.UsageFile), err)
	}
	d, err := gather.Open(gatherDir)
	if err != nil {
		return use, err
	}
	return use, d.Write(files)
}

// WriteAfter writes the short table after another report's lines, a blank
// line between them; a nil report (not read) writes nothing.
func (r *Report) WriteAfter(w io.Writer) error {
	if r == nil {
		return nil
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return r.WriteText(w)
}
