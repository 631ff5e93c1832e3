package netreq

import (
	"bufio"
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// WriteText writes the report for a person: what to open in the network
// first, then what stays on a host.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Network requirements of %s\n", textsafe.Value(r.Bundle))
	if !r.Enabled {
		fmt.Fprintln(bw, "\nNone: the bundle deploys no Konnectivity tunnel (bootstrap-in-place).")
		return bw.Flush()
	}
	for _, sec := range []struct{ scope, title string }{
		{scopeNetwork, "Allow in the network (firewall, security group), bootstrap phase only:"},
		{scopeHost, "Local to one host or pod (no firewall rule needed):"},
	} {
		fmt.Fprintf(bw, "\n%s\n", sec.title)
		for _, q := range r.Requirements {
			if q.Scope == sec.scope {
				writeRequirement(bw, q)
			}
		}
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(bw, "\nwarning: %s\n", textsafe.Value(warn))
	}
	return bw.Flush()
}

func writeRequirement(w io.Writer, q Requirement) {
	what := fmt.Sprintf("TCP %d", q.Port)
	if q.Protocol == "unix" {
		what = "unix socket " + textsafe.Escape(q.Path)
	}
	fmt.Fprintf(w, "  %s  %s\n", what, textsafe.Value(q.Purpose))
	fmt.Fprintf(w, "      from:   %s\n", textsafe.Value(q.From))
	fmt.Fprintf(w, "      to:     %s\n", textsafe.Value(q.To))
	fmt.Fprintf(w, "      when:   %s\n", q.Duration)
	if q.Note != "" {
		fmt.Fprintf(w, "      note:   %s\n", textsafe.Value(q.Note))
	}
	fmt.Fprintf(w, "      source: %s\n", textsafe.Value(q.Source))
}
