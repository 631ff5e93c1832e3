//go:build e2e

package e2e

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/kubernetes"
)

// call is one admission request of a load run.
type call struct {
	start, end time.Time
	err        error
}

// loadRun is C callers admitting dry-run ConfigMaps (one webhook call each)
// until a call budget or a time budget is spent, or stop() is called.
type loadRun struct {
	mu    sync.Mutex
	calls []call
	halt  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
	began time.Time
}

// failPause follows a failed call, so that callers do not hammer a KAS
// whose tunnel is down (calls then fail within a millisecond).
const failPause = 100 * time.Millisecond

// startLoad starts callers goroutines sharing a budget of maxCalls calls
// and maxDur of time, each call an admission through the kube-apiserver c.
func startLoad(c kubernetes.Interface, callers, maxCalls int, maxDur time.Duration) *loadRun {
	return startCalls(func() error { return admit(c, false) }, callers, maxCalls, maxDur)
}

// startCalls is startLoad with any call: each caller repeats do.
func startCalls(do func() error, callers, maxCalls int, maxDur time.Duration) *loadRun {
	l := &loadRun{halt: make(chan struct{}), began: time.Now()}
	deadline := l.began.Add(maxDur)
	var budget atomic.Int64
	budget.Store(int64(maxCalls))
	for range callers {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for budget.Add(-1) >= 0 && time.Now().Before(deadline) && !l.halted() {
				start := time.Now()
				err := do()
				l.record(call{start: start, end: time.Now(), err: err})
				if err != nil {
					time.Sleep(failPause)
				}
			}
		}()
	}
	return l
}

func (l *loadRun) halted() bool {
	select {
	case <-l.halt:
		return true
	default:
		return false
	}
}

func (l *loadRun) record(c call) {
	l.mu.Lock()
	l.calls = append(l.calls, c)
	l.mu.Unlock()
}

// stop ends the run early and waits for calls in flight.
func (l *loadRun) stop() []call {
	l.once.Do(func() { close(l.halt) })
	return l.wait()
}

// wait waits for the budgets to run out and returns every call.
func (l *loadRun) wait() []call {
	l.wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]call(nil), l.calls...)
	sort.Slice(out, func(i, j int) bool { return out[i].start.Before(out[j].start) })
	return out
}

// loadFigures summarises a load run.
type loadFigures struct {
	ok, failed int
	lat        latency // successful calls only
	perSecond  float64
	errors     map[string]int
}

func summariseLoad(calls []call) loadFigures {
	f := loadFigures{errors: map[string]int{}}
	var ds []time.Duration
	var first, last time.Time
	for i, c := range calls {
		if i == 0 || c.start.Before(first) {
			first = c.start
		}
		if c.end.After(last) {
			last = c.end
		}
		if c.err != nil {
			f.failed++
			f.errors[errorKind(c.err)]++
			continue
		}
		f.ok++
		ds = append(ds, c.end.Sub(c.start))
	}
	f.lat = summarise(ds)
	if span := last.Sub(first); span > 0 {
		f.perSecond = float64(f.ok) / span.Seconds()
	}
	return f
}

func (f loadFigures) String() string {
	s := fmt.Sprintf("%.0f calls/s, %v, %d failed", f.perSecond, f.lat, f.failed)
	if f.failed > 0 {
		s += fmt.Sprintf(" %v", f.errors)
	}
	return s
}

// errorKind shortens an admission error to what tells failures apart: the
// part after the last "failed calling webhook" prefix, without addresses.
func errorKind(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 && len(s)-i < 120 {
		s = s[i+2:]
	}
	if len(s) > 100 {
		s = s[:100]
	}
	return s
}

// firstSuccessAfter is how long after t the first call that started after
// t succeeded; ok is false if none did.
func firstSuccessAfter(calls []call, t time.Time) (time.Duration, bool) {
	for _, c := range calls {
		if c.err == nil && !c.start.Before(t) {
			return c.end.Sub(t), true
		}
	}
	return 0, false
}

// failedBetween counts failed calls in flight at any moment between from and to.
func failedBetween(calls []call, from, to time.Time) (n int, kinds map[string]int) {
	kinds = map[string]int{}
	for _, c := range calls {
		if c.err != nil && c.end.After(from) && c.start.Before(to) {
			n++
			kinds[errorKind(c.err)]++
		}
	}
	return n, kinds
}
