package hoststatus

import (
	"bufio"
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/jsonout"
)

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	return jsonout.Write(w, r)
}

// WriteText writes one line per check, a hint under each problem, and the
// verdict last.
func WriteText(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Konnectivity tunnel under root %s", r.Root)
	if r.BootstrapIP != "" {
		fmt.Fprintf(bw, " (bootstrap IP %s)", r.BootstrapIP)
	}
	fmt.Fprintln(bw)
	for _, c := range r.Checks {
		fmt.Fprintf(bw, "  %-8s %-16s %s\n", c.Severity, c.Name, c.Detail)
		if c.Hint != "" && c.Severity != OK {
			fmt.Fprintf(bw, "  %-8s %-16s hint: %s\n", "", "", c.Hint)
		}
	}
	if r.Usable {
		fmt.Fprintf(bw, "tunnel usable: %d agent(s) connected\n", r.Agents)
	} else {
		fmt.Fprintf(bw, "tunnel NOT usable: %d problem(s) above\n", r.count(Error))
	}
	return bw.Flush()
}

func (r *Report) count(s Severity) int {
	n := 0
	for _, c := range r.Checks {
		if c.Severity == s {
			n++
		}
	}
	return n
}
