package certset

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
)

// WriteNotes says on w (stderr) what the run did before its own work: how
// it finished or undid an interrupted run, and the temporary files of an
// older certs it removed.
func (r *Report) WriteNotes(w io.Writer) {
	hosttxn.WriteCleanup(w, r.Recovered, r.Swept)
}

// WriteText says which files under Dir were written and why, or why the
// set was reused.
func (r *Report) WriteText(w io.Writer) error {
	if len(r.Written) == 0 {
		_, err := fmt.Fprintf(w, "reused %s: %s\n", r.Dir, r.Reason)
		return err
	}
	paths := make([]string, len(r.Written))
	for i, name := range r.Written {
		paths[i] = filepath.Join(r.Dir, name)
	}
	_, err := fmt.Fprintf(w, "wrote %s\ngenerated because %s\n", strings.Join(paths, " "), r.Reason)
	return err
}
