package render

import (
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// WriteNotes says on w (stderr) what the run did before its own work: how
// it finished or undid an interrupted run, or in a dry run that one is
// pending, and the temporary files of an older certs it removed.
func (r *Report) WriteNotes(w io.Writer) {
	recovered := r.Recovered
	if r.DryRun && recovered != "" { // a dry run only says one is pending
		fmt.Fprintf(w, "warning: %s\n", textsafe.Value(recovered))
		recovered = ""
	}
	hosttxn.WriteCleanup(w, recovered, r.Swept)
}

// WriteText writes a line per file (its action, its path and, unless the
// overlay is disabled, its size), then one line saying what the run did or,
// in a dry run, would do.
func (r *Report) WriteText(w io.Writer) error {
	if r.Disabled {
		return r.writeDisabled(w)
	}
	for _, f := range r.Files {
		if _, err := fmt.Fprintf(w, "%-9s %s (%d bytes)\n", f.Action, textsafe.Value(f.Path), f.Size); err != nil {
			return err
		}
	}
	if !r.Changed() {
		_, err := fmt.Fprintf(w, "up to date: all %d files under %s already match (bootstrap IP %s); nothing written\n", len(r.Files), textsafe.Value(r.Root), r.bootstrapIPLabel())
		return err
	}
	certs := "reused"
	if r.CertsGenerated {
		certs = "generated"
	}
	verb := "rendered"
	if r.DryRun {
		verb = "dry run, nothing written; would render"
	}
	_, err := fmt.Fprintf(w, "%s %d files for bootstrap IP %s under %s: %d created, %d updated, %d unchanged, %d removed; certificates %s (%s)\n",
		verb, len(r.Files), r.bootstrapIPLabel(), textsafe.Value(r.Root),
		r.Count(hosttxn.Create), r.Count(hosttxn.Update), r.Count(hosttxn.Unchanged), r.Count(hosttxn.Remove),
		certs, textsafe.Value(r.CertsReason))
	return err
}

// writeDisabled is the text of an overlay that produces nothing
// (bootstrap-in-place): what an earlier render wrote is removed.
func (r *Report) writeDisabled(w io.Writer) error {
	if !r.Changed() {
		_, err := fmt.Fprintf(w, "Konnectivity is disabled for bootstrap-in-place (overlay %s produces nothing): nothing written\n", textsafe.Value(r.Overlay))
		return err
	}
	for _, f := range r.Files {
		if _, err := fmt.Fprintf(w, "%-9s %s\n", f.Action, textsafe.Value(f.Path)); err != nil {
			return err
		}
	}
	verb := "removed"
	if r.DryRun {
		verb = "dry run, nothing written; would remove"
	}
	_, err := fmt.Fprintf(w, "Konnectivity is disabled for bootstrap-in-place (overlay %s produces nothing): %s the %d file(s) an earlier render wrote\n",
		textsafe.Value(r.Overlay), verb, r.Count(hosttxn.Remove))
	return err
}

// bootstrapIPLabel is the bootstrap IP and, when --bootstrap-ip auto found
// it, where from: an address nobody typed must say where it came from.
func (r *Report) bootstrapIPLabel() string {
	if r.BootstrapIPSource == "" {
		return r.BootstrapIP
	}
	return fmt.Sprintf("%s (auto: from %s)", r.BootstrapIP, r.BootstrapIPSource)
}
