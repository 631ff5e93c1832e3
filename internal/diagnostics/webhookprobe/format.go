package webhookprobe

import (
	"bufio"
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// AllReachable reports whether every target was reached.
func AllReachable(rs []Result) bool {
	for _, r := range rs {
		if r.Outcome != Reachable {
			return false
		}
	}
	return true
}

// Results are every target of a run, as probe --webhooks writes them.
type Results []Result

// WriteText writes one line per target and a verdict that says whether the
// tunnel or individual webhooks are the problem.
func (rs Results) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	counts := map[Outcome]int{}
	for _, r := range rs {
		counts[r.Outcome]++
		who := r.Kind + " " + r.Name
		if r.Webhook != "" {
			who += " webhook " + r.Webhook
		}
		fmt.Fprintf(bw, "%-11s %s -> %s %s\n", r.Outcome, textsafe.Value(who), textsafe.Value(r.Service), textsafe.Value(r.Address))
		if r.Outcome != Reachable && r.Detail != "" {
			fmt.Fprintf(bw, "%-11s %s\n", "", textsafe.Value(r.Detail))
		}
	}
	switch {
	case len(rs) == 0:
		fmt.Fprintln(bw, "no Service-backed webhook or APIService is registered")
	case counts[NoAgent] > 0:
		fmt.Fprintf(bw, "the tunnel has no agent: %d of %d unreachable for that reason (konnectivity-bundle status)\n", counts[NoAgent], len(rs))
	case counts[Reachable] == len(rs):
		fmt.Fprintf(bw, "all %d reachable through the tunnel\n", len(rs))
	default:
		fmt.Fprintf(bw, "the tunnel works (%d reachable); the others' pods or Services are the problem\n", counts[Reachable])
	}
	return bw.Flush()
}
