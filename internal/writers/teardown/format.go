package teardown

import (
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
)

// WriteNotes says on w (stderr) how an interrupted run was finished or
// undone first, then each warning, escaped: they quote the state file and
// the cluster.
func (r *Report) WriteNotes(w io.Writer) {
	hosttxn.WriteCleanup(w, r.Recovered, nil) // teardown's sweep is in Removed
	for _, msg := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", textsafe.Escape(msg))
	}
}

// WriteText writes one line per path and object, then the counts; the
// names come from the state file and the cluster, so they are escaped
// (internal/report/textsafe).
func (r *Report) WriteText(w io.Writer) error {
	for _, l := range []struct {
		label, suffix string
		names         []string
	}{
		{"removed", "", r.Removed},
		{"gone", "", r.AlreadyGone},
		{"deleted", " (background, not waiting)", r.Deleted},
		{"gone", "", r.NotFound},
		{"refused", " (not ours, left in place; see the warning)", r.Refused},
	} {
		for _, n := range l.names {
			if _, err := fmt.Fprintf(w, "%-9s %s%s\n", l.label, textsafe.Escape(n), l.suffix); err != nil {
				return err
			}
		}
	}
	_, err := fmt.Fprintf(w, "teardown: %d removed, %d already gone, %d cluster object(s) deleted, %d already gone, %d refused, %d still recorded\n",
		len(r.Removed), len(r.AlreadyGone), len(r.Deleted), len(r.NotFound), len(r.Refused), len(r.Pending))
	return err
}

// Unfinished says what a teardown a signal stopped after it removed its
// files left undone; "" when it finished.
func (r *Report) Unfinished() string {
	if r == nil || r.Stopped == nil {
		return ""
	}
	return fmt.Sprintf("the teardown removed its files from the host and stopped before the cluster objects; %d stay recorded in the state file (run teardown --kubeconfig again)", len(r.Pending))
}

// Printed is what the teardown command prints on stdout: the report's
// lines (none when teardown never held the root's lock), the kubeconfig it
// read (or why none), then Usage, the table of what used the tunnel, when
// it was read (UsageReport).
type Printed struct {
	Report *Report
	Kube   kuberead.Used
	Usage  UsageReport
}

// WriteText writes each part as its package words it.
func (p Printed) WriteText(w io.Writer) error {
	if p.Report != nil {
		if err := p.Report.WriteText(w); err != nil {
			return err
		}
	}
	if err := p.Kube.WriteText(w); err != nil || p.Usage == nil {
		return err
	}
	return p.Usage.WriteAfter(w)
}
