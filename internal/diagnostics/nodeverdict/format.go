package nodeverdict

import (
	"bufio"
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Brief is the report in one line, for progress lines: why the node side
// is not seen, the summary, or that every node's agent is connected, as
// the server's own count confirms (confirm.go).
func (r *Report) Brief() string {
	switch {
	case !r.Seen:
		return r.Unseen
	case r.Summary != nil:
		s := r.Summary
		return fmt.Sprintf("%s on %d of %d node(s) not connected, e.g. %s", s.Cause, s.Nodes, s.Of, s.Detail)
	case len(r.Nodes) == 0:
		return "no node in the cluster yet"
	}
	return fmt.Sprintf("every node's agent is connected (%d), and the server counts %s", len(r.Nodes), plural(r.agents, "agent"))
}

// WriteText writes the report as status shows it, WriteIndented unindented.
func (r *Report) WriteText(w io.Writer) error { return r.WriteIndented(w, "") }

// WriteIndented writes the report under indent: the brief line, then one
// line per node with its fix under it.
func (r *Report) WriteIndented(w io.Writer, indent string) error {
	bw := bufio.NewWriter(w)
	// Node names, pod messages and server-log lines come from the cluster
	// and the server: escaped, so none can forge a line or drive the
	// terminal (internal/report/textsafe).
	fmt.Fprintf(bw, "%snodes: %s\n", indent, textsafe.Escape(r.Brief()))
	for _, l := range r.Nodes {
		fmt.Fprintf(bw, "%s  %s\n", indent, textsafe.Escape(l.String()))
		if l.Fix != "" {
			fmt.Fprintf(bw, "%s    fix: %s\n", indent, textsafe.Escape(l.Fix))
		}
	}
	return bw.Flush()
}

// Wanted is how many nodes should run an agent: every node the DaemonSet
// selects (its nodeSelector), whatever else keeps the agent off.
func (r *Report) Wanted() int {
	n := 0
	for _, l := range r.Nodes {
		if l.Cause != NotSelected {
			n++
		}
	}
	return n
}
