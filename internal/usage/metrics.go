package usage

import (
	"fmt"
	"io"
	"sort"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// families is one /metrics page, by metric family name.
type families map[string]*dto.MetricFamily

// parse reads the Prometheus text exposition (what the kube-apiserver and
// proxy-server serve on /metrics).
func parse(r io.Reader) (families, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("parse metrics: %w", err)
	}
	return fams, nil
}

// series are the samples of one family, each with its labels as a map.
func (f families) series(name string) []sample {
	fam := f[name]
	if fam == nil {
		return nil
	}
	out := make([]sample, 0, len(fam.Metric))
	for _, m := range fam.Metric {
		s := sample{labels: map[string]string{}, metric: m}
		for _, l := range m.Label {
			s.labels[l.GetName()] = l.GetValue()
		}
		out = append(out, s)
	}
	return out
}

// sample is one series of a family.
type sample struct {
	labels map[string]string
	metric *dto.Metric
}

// value is a counter's, gauge's or untyped sample's value.
func (s sample) value() float64 {
	switch {
	case s.metric.Counter != nil:
		return s.metric.Counter.GetValue()
	case s.metric.Gauge != nil:
		return s.metric.Gauge.GetValue()
	case s.metric.Untyped != nil:
		return s.metric.Untyped.GetValue()
	}
	return 0
}

// count is a counter's value as a whole number of events.
func (s sample) count() int { return int(s.value()) }

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
