package usage

import (
	"math"
	"sort"

	dto "github.com/prometheus/client_model/go"
)

// Latency summarises a histogram: the mean from its sum and count, and
// p50/p99 estimated from its buckets as Prometheus' histogram_quantile
// does (linear within a bucket), so they are only as fine as the buckets.
type Latency struct {
	MeanSeconds float64 `json:"meanSeconds"`
	P50Seconds  float64 `json:"p50Seconds"`
	P99Seconds  float64 `json:"p99Seconds"`
}

// histogram is the sum of several series of one histogram family (their
// bucket bounds are the family's, so they add bucket by bucket).
type histogram struct {
	count  uint64
	sum    float64
	bucket map[float64]uint64 // upper bound -> cumulative count
}

func (h *histogram) add(m *dto.Metric) {
	hm := m.GetHistogram()
	if hm == nil {
		return
	}
	if h.bucket == nil {
		h.bucket = map[float64]uint64{}
	}
	h.count += hm.GetSampleCount()
	h.sum += hm.GetSampleSum()
	for _, b := range hm.Bucket {
		h.bucket[b.GetUpperBound()] += b.GetCumulativeCount()
	}
}

// latency is the summary; zero without observations.
func (h *histogram) latency() Latency {
	if h.count == 0 {
		return Latency{}
	}
	return Latency{
		MeanSeconds: round(h.sum / float64(h.count)),
		P50Seconds:  round(h.quantile(0.50)),
		P99Seconds:  round(h.quantile(0.99)),
	}
}

// quantile estimates the q-quantile: the bucket the rank falls in, then a
// linear position inside it. A rank in the +Inf bucket gives the largest
// finite bound, as histogram_quantile does.
func (h *histogram) quantile(q float64) float64 {
	bounds := make([]float64, 0, len(h.bucket))
	for b := range h.bucket {
		bounds = append(bounds, b)
	}
	sort.Float64s(bounds)
	rank := q * float64(h.count)
	lower, below := 0.0, uint64(0)
	for _, b := range bounds {
		n := h.bucket[b]
		if float64(n) >= rank {
			if math.IsInf(b, 1) {
				return lower
			}
			if n == below {
				return b
			}
			return lower + (b-lower)*(rank-float64(below))/float64(n-below)
		}
		lower, below = b, n
	}
	return lower
}

// round keeps microseconds: finer digits are noise from float sums.
func round(s float64) float64 { return math.Round(s*1e6) / 1e6 }
