package usage

import (
	"math"
	"testing"
)

// TestQuantile: histogram_quantile's estimate, bucket by bucket.
func TestQuantile(t *testing.T) {
	h := &histogram{count: 10, sum: 1, bucket: map[float64]uint64{0.1: 4, 0.5: 8, 1: 10, math.Inf(1): 10}}
	over := &histogram{count: 4, sum: 40, bucket: map[float64]uint64{1: 1, math.Inf(1): 4}}
	tests := []struct {
		name string
		h    *histogram
		q    float64
		want float64
	}{
		{"inside the first bucket", h, 0.2, 0.05},
		{"on a bucket's edge", h, 0.4, 0.1},
		{"inside a later bucket", h, 0.6, 0.3},
		{"top of the last finite bucket", h, 1, 1},
		{"rank in +Inf gives the largest finite bound", over, 0.99, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := round(tt.h.quantile(tt.q)); got != tt.want {
				t.Errorf("quantile(%v) = %v, want %v", tt.q, got, tt.want)
			}
		})
	}
	if l := (&histogram{}).latency(); l != (Latency{}) {
		t.Errorf("empty histogram latency %+v, want zero", l)
	}
}
