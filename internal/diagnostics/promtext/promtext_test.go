package promtext

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const page = `# HELP x_total a counter
# TYPE x_total counter
x_total{a="1"} 2
x_total{a="2"} 3
# TYPE y_count counter
y_count 4
# TYPE h histogram
h_bucket{le="1"} 1
h_bucket{le="+Inf"} 2
h_sum 1.5
h_count 2
# TYPE other gauge
other 7
`

func TestReadKeepsOnlyWantedFamilies(t *testing.T) {
	p, err := Read(strings.NewReader(page), "x_total", "y_count", "h")
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := p.Sum("x_total", nil); !ok || n != 5 {
		t.Errorf("x_total = %d, %v; want 5", n, ok)
	}
	if n, ok := p.Sum("y_count", nil); !ok || n != 4 {
		t.Errorf("a counter ending in _count = %d, %v; want 4", n, ok)
	}
	if s := p.Series("h"); len(s) != 1 || s[0].Metric.GetHistogram().GetSampleCount() != 2 {
		t.Errorf("histogram h = %+v, want one series of 2 observations", s)
	}
	if p.Has("other") {
		t.Error("a family nobody asked for was kept")
	}
}

func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"not an exposition", "not metrics {\n", "not in the text exposition format"},
		{"a line too long", "x_total " + strings.Repeat("1", maxLine+1) + "\n", "longer than 64 KiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Read(strings.NewReader(tc.body), "x_total"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	huge := &lines{line: "x_total{a=\"" + strings.Repeat("v", 1000) + "\"} 1\n", left: maxKept/1000 + 10}
	if _, err := Read(huge, "x_total"); !errors.Is(err, errTooLarge) {
		t.Errorf("wanted lines over %d bytes: error %v, want ErrTooLarge", maxKept, err)
	}
}

func TestUnreadableValues(t *testing.T) {
	for _, v := range []string{"+Inf", "-Inf", "NaN", "-1", "1e300"} {
		p, err := Read(strings.NewReader("# TYPE x_total counter\nx_total{a=\"1\"} "+v+"\nx_total{a=\"2\"} 3\n"), "x_total")
		if err != nil {
			t.Fatal(err)
		}
		if why := p.Unreadable("x_total"); !strings.Contains(why, `x_total{a="1"}`) {
			t.Errorf("%s: unreadable = %q, want it to name the series", v, why)
		}
		if _, ok := p.Sum("x_total", nil); ok || len(p.Series("x_total")) != 0 {
			t.Errorf("%s: an unreadable family still gave figures", v)
		}
	}
}

// TestMemoryIsBoundedOnAHugeBody streams 256 MiB of families nobody asked
// for, as a runaway /metrics would serve, and holds the heap's peak: the
// reader keeps only wanted lines (maxKept) and one line (maxLine).
func TestMemoryIsBoundedOnAHugeBody(t *testing.T) {
	body := &lines{line: "unwanted_metric{pod=\"" + strings.Repeat("p", 200) + "\"} 1\n", left: (256 << 20) / 230}
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak.Load() {
					peak.Store(m.HeapInuse)
				}
			}
		}
	}()
	_, err := Read(body, "x_total")
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("figure: reading 256 MiB of unwanted families peaked at %d MiB of heap in use", peak.Load()>>20)
	if peak.Load() > 64<<20 {
		t.Errorf("heap in use peaked at %d MiB reading 256 MiB: the body is being held", peak.Load()>>20)
	}
}

// lines is a reader of one line repeated left times.
type lines struct {
	line string
	left int
	cur  string
}

func (l *lines) Read(p []byte) (int, error) {
	if l.cur == "" {
		if l.left == 0 {
			return 0, io.EOF
		}
		l.left--
		l.cur = l.line
	}
	n := copy(p, l.cur)
	l.cur = l.cur[n:]
	return n, nil
}
