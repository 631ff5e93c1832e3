package usage

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// WriteText writes the short table: where the metrics came from, one line
// per webhook and APIService, and the dial totals of both ends. Every name
// and label value comes from a process or a cluster the tool does not
// control, so each is escaped (internal/report/textsafe).
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString("What used the tunnel (counts since each process started):\n")
	writeSource(&b, "kube-apiserver metrics", r.KubeAPIServer)
	writeSource(&b, "proxy-server metrics", r.ProxyServer)
	writeSource(&b, "webhook and APIService registrations", r.Registrations)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	if len(r.Webhooks) == 0 {
		b.WriteString("  no admission webhook called or registered\n")
	} else {
		fmt.Fprintln(tw, "  WEBHOOK\tTYPE\tROUTE\tCALLS\tALLOWED\tREFUSED\tFAILED\tMEAN\tP99")
		for _, h := range r.Webhooks {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s\n", esc(h.Name), esc(h.Type), esc(h.Route), h.Calls, h.Allowed, h.Refused, h.Failed,
				seconds(h.Latency.MeanSeconds, h.Calls), seconds(h.Latency.P99Seconds, h.Calls))
		}
	}
	if err := tw.Flush(); err != nil { // each section aligns on its own
		return err
	}
	if len(r.APIServices) > 0 {
		fmt.Fprintln(tw, "  APISERVICE\tSERVICE\tAVAILABLE")
		for _, a := range r.APIServices {
			avail := "unknown"
			if a.Available != nil {
				avail = fmt.Sprint(*a.Available)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", esc(a.Name), esc(a.Service), avail)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, d := range r.EgressDials {
		fmt.Fprintf(&b, "  kube-apiserver egress dials (%s/%s): %d started, %d succeeded, %d failed%s, mean %s\n",
			esc(d.Protocol), esc(d.Transport), d.Started, d.Succeeded, d.Failed, breakdown(d.FailedByStage), seconds(d.Latency.MeanSeconds, d.Succeeded))
	}
	if d := r.ServerDials; d != nil {
		fmt.Fprintf(&b, "  proxy-server dials: %d sent to agents, %d succeeded, %d failed%s, mean %s\n",
			d.Requested, d.Succeeded, d.Failed, breakdown(d.FailedByReason), seconds(d.Latency.MeanSeconds, d.Succeeded))
	}
	for _, u := range r.Unreadable {
		fmt.Fprintf(&b, "  unreadable figure, left out: %s\n", strconv.QuoteToASCII(u))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeSource(b *strings.Builder, what string, s Source) {
	switch {
	case s.Read && s.From != "":
		fmt.Fprintf(b, "  %s: %s\n", what, esc(s.From))
	case !s.Read && s.NoCluster: // the kubeconfig line says why, once
		fmt.Fprintf(b, "  %s: not read, without a kubeconfig (the kubeconfig line says why)\n", what)
	case !s.Read:
		fmt.Fprintf(b, "  %s: not read: %s\n", what, esc(s.Error))
	}
}

// esc is textsafe.Escape, short for the table's many values.
func esc(s string) string { return textsafe.Escape(s) }

// seconds prints a latency as a duration, "-" without observations.
func seconds(s float64, n int) string {
	if n == 0 {
		return "-"
	}
	return time.Duration(s * float64(time.Second)).Round(10 * time.Microsecond).String()
}

// breakdown is " (a 1, b 2)" in key order, or "" when empty.
func breakdown(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	parts := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s %d", esc(k), m[k]))
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
