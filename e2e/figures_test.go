//go:build e2e

package e2e

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// latency summarises a series of round trips.
type latency struct {
	n           int
	median, p99 time.Duration
}

func summarise(ds []time.Duration) latency {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return latency{}
	}
	return latency{n: len(s), median: s[len(s)/2], p99: s[(len(s)*99)/100]}
}

func (l latency) String() string {
	return fmt.Sprintf("median %v p99 %v (n=%d)", l.median.Round(10*time.Microsecond), l.p99.Round(10*time.Microsecond), l.n)
}

// figureBook collects the figures of every case for one table at the end.
type figureBook struct {
	mu   sync.Mutex
	rows []string
}

var figures figureBook

// add records one figure for a case.
func (f *figureBook) add(testCase, name string, value any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rows = append(f.rows, fmt.Sprintf("figure: %-18s %-42s %v", testCase, name, value))
}

// String is the table printed at the end of the run; every line starts with
// "figure:" so `make e2e` can pick them out of the verbose log.
func (f *figureBook) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.rows) == 0 {
		return ""
	}
	return strings.Join(f.rows, "\n") + "\n"
}
