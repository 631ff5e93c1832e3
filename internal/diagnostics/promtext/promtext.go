// Package promtext reads the Prometheus text exposition that proxy-server
// and the kube-apiserver serve on /metrics. It is the one metrics parser of
// the tools (status, wait and the usage report): it reads as a stream,
// keeps only the families its caller names, bounds what it holds, parses
// them with the exposition format's own parser (expfmt), and refuses to
// turn a value that is not a finite, non-negative count into a figure.
package promtext

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Bounds on what Read holds, whatever the body's size (an endless body is
// read until the caller's deadline, in constant memory):
const (
	// maxLine is the longest line read; a longer one is an error.
	maxLine = 64 << 10
	// maxKept is the most text kept of the wanted families.
	maxKept = 8 << 20
	// maxCount is the largest value taken as a count: beyond 2^53 a float
	// no longer holds every whole number, so the figure would be made up.
	maxCount = 1 << 53
)

// errTooLarge is a page whose wanted families exceed maxKept.
var errTooLarge = errors.New("the wanted metric families hold more than 8 MiB")

// Page is the wanted families of one /metrics page.
type Page struct {
	fams map[string]*dto.MetricFamily
	bad  map[string]string // family -> why its values are unreadable
}

// Read parses the families named in want (histograms with their _bucket,
// _sum and _count series) from r; everything else is skipped unread into
// memory. A line over maxLine, kept text over maxKept or a page the format
// parser refuses is an error.
func Read(r io.Reader, want ...string) (*Page, error) {
	kept, err := Filter(r, want...)
	if err != nil {
		return nil, err
	}
	return parse(kept)
}

// Filter streams r and returns only the text of the wanted families, within
// the same bounds as Read, for a caller that keeps the page as text (the
// usage report's kube-apiserver scrape, parsed when the report is built).
func Filter(r io.Reader, want ...string) ([]byte, error) {
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	return filter(r, wanted)
}

func parse(kept []byte) (*Page, error) {
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(bytes.NewReader(kept))
	if err != nil {
		return nil, fmt.Errorf("parse metrics: %w", err)
	}
	p := &Page{fams: fams, bad: map[string]string{}}
	for name, f := range fams {
		if why := unreadable(f); why != "" {
			p.bad[name] = why
		}
	}
	return p, nil
}

// filter copies the lines that belong to a wanted family, and checks that
// every other sample line at least has the shape of one (a name, optional
// labels, a number), so a page that is no exposition at all is an error
// rather than an empty page.
func filter(r io.Reader, wanted map[string]bool) ([]byte, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var kept bytes.Buffer
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		name, base, sample := familyOf(line)
		if !wanted[name] && !wanted[base] {
			if sample && !sampleShaped(line) {
				return nil, fmt.Errorf("parse metrics: line %d is not in the text exposition format", n)
			}
			continue
		}
		if kept.Len()+len(line)+1 > maxKept {
			return nil, errTooLarge
		}
		kept.Write(line)
		kept.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("read metrics: a line is longer than %d KiB", maxLine>>10)
		}
		return nil, fmt.Errorf("read metrics: %w", err)
	}
	return kept.Bytes(), nil
}

// familyOf names the family a line may belong to: the name after `# HELP`
// or `# TYPE`, or a sample's metric name, and that name without a
// histogram's _bucket, _sum or _count suffix (a counter may end in _count
// itself, so the caller tries both). sample says the line is a sample.
func familyOf(line []byte) (name, base string, sample bool) {
	s := strings.TrimSpace(string(line))
	if s == "" {
		return "", "", false
	}
	if rest, ok := strings.CutPrefix(s, "#"); ok {
		f := strings.Fields(rest)
		if len(f) >= 2 && (f[0] == "HELP" || f[0] == "TYPE") {
			return f[1], f[1], false
		}
		return "", "", false
	}
	name = s
	if i := strings.IndexAny(s, "{ \t"); i >= 0 {
		name = s[:i]
	}
	base = name
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if b, ok := strings.CutSuffix(name, suffix); ok {
			base = b
			break
		}
	}
	return name, base, true
}

// sampleShaped: a metric name, optional {labels}, then a number.
func sampleShaped(line []byte) bool {
	s := strings.TrimSpace(string(line))
	rest := s
	if i := strings.LastIndexByte(s, '}'); i >= 0 && strings.IndexByte(s, '{') >= 0 {
		rest = s[i+1:]
	} else if i := strings.IndexAny(s, " \t"); i >= 0 {
		rest = s[i:]
	} else {
		return false
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return false
	}
	_, err := strconv.ParseFloat(f[0], 64)
	return err == nil
}

// unreadable says why a family's values make no figure: a counter, gauge
// or untyped value that is NaN, infinite, negative or beyond maxCount, or a
// histogram sum that is not finite.
func unreadable(f *dto.MetricFamily) string {
	for _, m := range f.Metric {
		var v float64
		switch {
		case m.Counter != nil:
			v = m.Counter.GetValue()
		case m.Gauge != nil:
			v = m.Gauge.GetValue()
		case m.Untyped != nil:
			v = m.Untyped.GetValue()
		case m.Histogram != nil:
			v = m.Histogram.GetSampleSum()
		default:
			continue
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > maxCount {
			return fmt.Sprintf("%s%s has the value %v, which is no count", f.GetName(), labelText(m), v)
		}
	}
	return ""
}

func labelText(m *dto.Metric) string {
	if len(m.Label) == 0 {
		return ""
	}
	parts := make([]string, 0, len(m.Label))
	for _, l := range m.Label {
		parts = append(parts, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Has reports whether the page holds the family (readable or not).
func (p *Page) Has(family string) bool { return p.fams[family] != nil }

// Unreadable returns why the family's values make no figure, or "".
func (p *Page) Unreadable(family string) string { return p.bad[family] }

// UnreadableAll lists the unreadable families' reasons, sorted.
func (p *Page) UnreadableAll() []string {
	out := make([]string, 0, len(p.bad))
	for _, why := range p.bad {
		out = append(out, why)
	}
	slices.Sort(out)
	return out
}

// Series are the samples of a readable family; none for an unreadable or
// absent one.
func (p *Page) Series(family string) []Sample {
	f := p.fams[family]
	if f == nil || p.bad[family] != "" {
		return nil
	}
	out := make([]Sample, 0, len(f.Metric))
	for _, m := range f.Metric {
		s := Sample{Labels: map[string]string{}, Metric: m}
		for _, l := range m.Label {
			s.Labels[l.GetName()] = l.GetValue()
		}
		out = append(out, s)
	}
	return out
}

// Sample is one series of a family.
type Sample struct {
	Labels map[string]string
	Metric *dto.Metric
}

// Value is a counter's, gauge's or untyped sample's value; Read has made
// sure it is a finite count.
func (s Sample) Value() float64 {
	switch {
	case s.Metric.Counter != nil:
		return s.Metric.Counter.GetValue()
	case s.Metric.Gauge != nil:
		return s.Metric.Gauge.GetValue()
	case s.Metric.Untyped != nil:
		return s.Metric.Untyped.GetValue()
	}
	return 0
}

// Count is the value as a whole number of events.
func (s Sample) Count() int { return int(s.Value()) }

// Sum adds the values of a readable family's series whose labels match,
// and says whether the family is on the page and readable.
func (p *Page) Sum(family string, match func(labels map[string]string) bool) (int, bool) {
	if !p.Has(family) || p.bad[family] != "" {
		return 0, false
	}
	n := 0
	for _, s := range p.Series(family) {
		if match == nil || match(s.Labels) {
			n += s.Count()
		}
	}
	return n, true
}
