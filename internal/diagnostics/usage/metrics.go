package usage

import (
	"io"
	"sort"

	dto "github.com/prometheus/client_model/go"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/promtext"
)

// reportFamilies are the families the report reads, of both sides.
var reportFamilies = []string{
	kasWebhookRequests, kasWebhookRejection, kasWebhookFailOpen, kasWebhookDuration,
	kasEgressStarts, kasEgressDuration, kasEgressFailures, kasAPIServiceDown,
	serverDialDuration, serverDialFailures, serverPackets,
}

// families is one /metrics page as promtext read it (the tools' one
// parser); the zero value is a page that was not read.
type families struct{ page *promtext.Page }

// parse reads the families the report needs from a Prometheus text
// exposition (what the kube-apiserver and proxy-server serve on /metrics).
func parse(r io.Reader) (families, error) {
	p, err := promtext.Read(r, reportFamilies...)
	if err != nil {
		return families{}, err
	}
	return families{p}, nil
}

// unreadable lists the families whose values are no count (NaN, infinite,
// negative or too large), which the report leaves out instead of totting
// them up into nonsense.
func (f families) unreadable() []string {
	if f.page == nil {
		return nil
	}
	return f.page.UnreadableAll()
}

// series are the samples of a readable family, each with its labels as a
// map; none when the page was not read or the family is unreadable.
func (f families) series(name string) []sample {
	if f.page == nil {
		return nil
	}
	var out []sample
	for _, s := range f.page.Series(name) {
		out = append(out, sample{labels: s.Labels, metric: s.Metric, value: s.Value()})
	}
	return out
}

// sample is one series of a family.
type sample struct {
	labels map[string]string
	metric *dto.Metric
	value  float64 // counter, gauge or untyped value; finite (promtext)
}

// count is a counter's value as a whole number of events.
func (s sample) count() int { return int(s.value) }

// sortedKeys returns m's keys in order, for output that never depends on
// map iteration.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
