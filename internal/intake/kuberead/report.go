package kuberead

import (
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Used is what a command's report says of its reads of the kube-apiserver:
// the kubeconfig and where it came from (or why none), and the lists the
// item cap cut. Every command writes it the same way.
type Used struct {
	Choice
	Cut []Cut `json:"cut,omitempty"`
}

// Summary is the Used of a command that found c and read through r (nil
// when it read nothing).
func Summary(c Choice, r *Reader) Used { return Used{Choice: c, Cut: r.cutsSoFar()} }

// WriteText writes the kubeconfig line, then one line per cut list. The
// paths come from the command line or the environment, so they are escaped.
func (u Used) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintln(w, textsafe.Escape(u.Choice.String())); err != nil {
		return err
	}
	for _, c := range u.Cut {
		if _, err := fmt.Fprintf(w, "  list cut: %s\n", c); err != nil {
			return err
		}
	}
	return nil
}
