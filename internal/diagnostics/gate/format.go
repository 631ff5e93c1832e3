package gate

import (
	"fmt"
	"io"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// WriteProgress writes one "waiting" line: what for, the time spent of
// the whole wait (so neither reads as time still to come), and the detail,
// or, when the same line came before, how often instead of it again.
func WriteProgress(w io.Writer, p Progress) {
	clock := fmt.Sprintf("%s elapsed of --timeout %s", p.Elapsed.Round(100*time.Millisecond), p.Timeout)
	if p.Repeats > 0 {
		fmt.Fprintf(w, "waiting for %s (%s): nothing new, said %d times\n", p.Waiting, clock, p.Repeats+1)
		return
	}
	fmt.Fprintf(w, "waiting for %s (%s): %s\n", p.Waiting, clock, textsafe.Escape(p.Detail))
}

// WriteText writes the verdict: one line when ready; otherwise the cause,
// its detail and its fix, escaped: the detail quotes the server's log and
// what the server and the cluster said (internal/report/textsafe).
func (v *Verdict) WriteText(w io.Writer) error {
	waited := v.Waited.Round(10 * time.Millisecond)
	if v.Stopped != "" && !v.Ready { // Ctrl-C: what the wait knew when it stopped
		if _, err := fmt.Fprintf(w, "%s after %s; NOT ready so far: %s%s\n  %s\n  fix: %s\n", v.Stopped, waited, v.Cause, v.saidText(), textsafe.Escape(v.Detail), textsafe.Escape(v.Fix)); err != nil {
			return err
		}
		return v.writeNodes(w)
	}
	if v.Ready {
		_, err := fmt.Fprintf(w, "ready after %s: server healthy, %d agent(s) connected (at least %d), %d test dial(s) through the socket succeeded\n",
			waited, v.Agents, v.MinAgents, len(v.Targets))
		return err
	}
	if _, err := fmt.Fprintf(w, "NOT ready after %s: %s%s\n  %s\n  fix: %s\n", waited, v.Cause, v.saidText(), textsafe.Escape(v.Detail), textsafe.Escape(v.Fix)); err != nil {
		return err
	}
	return v.writeNodes(w)
}

// saidText is the verdict's fold count, as a folded progress line says it.
func (v *Verdict) saidText() string {
	if v.Said < 2 {
		return ""
	}
	return fmt.Sprintf(" (said %d times while waiting)", v.Said)
}

// writeNodes writes the node side under a verdict that is not ready.
func (v *Verdict) writeNodes(w io.Writer) error {
	if v.Nodes == nil {
		return nil
	}
	return v.Nodes.WriteIndented(w, "  ")
}

// JSONDocument is the verdict with the last status run's checks, as
// --output json and wait --gather write it.
func (v *Verdict) JSONDocument() any {
	out := struct {
		*Verdict
		Checks []hoststatus.CheckJSON `json:"checks,omitempty"`
	}{Verdict: v}
	if v.Status != nil {
		out.Checks = hoststatus.ChecksJSON(v.Status)
	}
	return out
}
