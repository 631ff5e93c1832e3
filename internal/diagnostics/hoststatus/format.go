package hoststatus

import (
	"bufio"
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// CheckJSON is one check as `status --output json` writes it.
type CheckJSON struct {
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Detail   string `json:"detail"`
	Hint     string `json:"hint,omitempty"`
}

// JSONDocument is the report as --output json writes it, each check flat.
func (r *Report) JSONDocument() any {
	return struct {
		*Report
		Checks []CheckJSON `json:"checks"`
	}{r, ChecksJSON(r)}
}

// ChecksJSON is every check of the report, flat, as JSONDocument holds them.
func ChecksJSON(r *Report) []CheckJSON {
	var checks []CheckJSON
	for _, c := range r.Checks {
		checks = append(checks, CheckJSON{Name: result.Rule(c), Severity: label(c.Severity), Detail: c.Message, Hint: result.Fix(c)})
	}
	return checks
}

// WriteText writes one line per check, a hint under each problem, and the
// verdict last.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	// A check's detail carries what the server and the files said (label
	// values, response bodies, paths): escaped, as every external value
	// printed in text (internal/report/textsafe).
	fmt.Fprintf(bw, "Konnectivity tunnel under root %s", textsafe.Escape(r.Root))
	if r.BootstrapIP != "" {
		fmt.Fprintf(bw, " (bootstrap IP %s)", textsafe.Escape(r.BootstrapIP))
	}
	fmt.Fprintln(bw)
	for _, c := range r.Checks {
		fmt.Fprintf(bw, "  %-8s %-16s %s\n", label(c.Severity), result.Rule(c), textsafe.Escape(c.Message))
		if hint := result.Fix(c); hint != "" && c.Severity != framework.Info {
			fmt.Fprintf(bw, "  %-8s %-16s hint: %s\n", "", "", textsafe.Escape(hint))
		}
	}
	if r.Usable {
		fmt.Fprintf(bw, "tunnel usable: %d agent(s) connected\n", r.Agents)
	} else {
		fmt.Fprintf(bw, "tunnel NOT usable: %d problem(s) above\n", result.Count(r.Checks, framework.Error))
	}
	return bw.Flush()
}

// label is a severity as status prints it: a check that passed is "ok".
func label(s framework.Severity) string {
	if s == framework.Info {
		return "ok"
	}
	return string(s)
}
