package gate

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
)

// TestProgressFoldsRepeats: on a root render has not written, every poll
// says the same; the first report says it in full (the cause and the node
// side), with the time spent and the deadline, and each later one is one
// line that only counts it; the verdict the wait ends on keeps the count.
// The clock is the test's.
func TestProgressFoldsRepeats(t *testing.T) {
	var mu sync.Mutex
	clock := time.Unix(0, 0)
	now := func() time.Time { // each reading is 2s later: a report every few polls
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(2 * time.Second)
		return clock
	}
	var lines []string
	v := Wait(context.Background(), Options{
		Status: hoststatus.Options{Root: t.TempDir()}, Timeout: 40 * time.Second, Interval: time.Millisecond, Now: now,
		Progress: func(p Progress) {
			var b strings.Builder
			WriteProgress(&b, p)
			lines = append(lines, b.String())
		},
	})
	if v.Ready || v.Cause != NotRendered {
		t.Fatalf("verdict %+v, want not ready: %s", v, NotRendered)
	}
	if len(lines) < 4 {
		t.Fatalf("only %d progress lines:\n%s", len(lines), strings.Join(lines, ""))
	}
	first := regexp.MustCompile(`^waiting for a usable rendered root \(not-rendered\) \([0-9.]+s elapsed of --timeout 40s\): no state file at `)
	if !first.MatchString(lines[0]) {
		t.Errorf("first line %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "waiting for agents, per node (") || !strings.Contains(lines[1], "no kubeconfig") {
		t.Errorf("second line %q, want the node side in full", lines[1])
	}
	for i, l := range lines[2:] { // the node side, as unchanged as the cause, adds no line
		if !strings.HasPrefix(l, "waiting for a usable rendered root") ||
			!strings.HasSuffix(l, fmt.Sprintf(" elapsed of --timeout 40s): nothing new, said %d times\n", i+2)) {
			t.Errorf("line %d %q: want the repeat counted in one line, not said again", i+3, l)
		}
	}
	// The wait ended during the run: the verdict keeps its count, every
	// line of the run printed (all but the node side's).
	var b strings.Builder
	if err := v.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(": not-rendered (said %d times while waiting)\n", len(lines)-1); v.Said != len(lines)-1 || !strings.Contains(b.String(), want) {
		t.Errorf("verdict (said %d):\n%s\nwant it to contain %q", v.Said, b.String(), want)
	}
}

// TestStoppedWaitSaysTheVerdictSoFar: a wait its caller stops (Ctrl-C)
// returns the last whole poll's verdict, marked with why it stopped, and
// its text says it is the verdict so far.
func TestStoppedWaitSaysTheVerdictSoFar(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	v := Wait(ctx, Options{
		Status: hoststatus.Options{Root: t.TempDir()}, Timeout: time.Hour, Interval: time.Millisecond,
		Progress: func(Progress) { cancel(errors.New("interrupted by SIGINT")) },
	})
	if v.Ready || v.Cause != NotRendered || v.Stopped != "interrupted by SIGINT" {
		t.Fatalf("verdict %+v, want %s so far, stopped by the signal", v, NotRendered)
	}
	var b strings.Builder
	if err := v.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^interrupted by SIGINT after [0-9.]+m?s; NOT ready so far: not-rendered\n  no state file at `).MatchString(b.String()) {
		t.Errorf("text:\n%s", b.String())
	}
}

// TestWaitCountsFromStarted: a wait that began before its first poll (the
// command read a kubeconfig first) is timed from Started: its deadline is
// Started plus Timeout, and the verdict's time spent includes the time
// before the poll.
func TestWaitCountsFromStarted(t *testing.T) {
	clock := time.Unix(100, 0)
	now := func() time.Time { clock = clock.Add(time.Second); return clock }
	v := Wait(context.Background(), Options{
		Status: hoststatus.Options{Root: t.TempDir()}, Timeout: 30 * time.Second, Interval: time.Millisecond, Now: now,
		Started: time.Unix(75, 0), // 25s of the 30 spent before Wait
	})
	if v.Ready || v.Waited < 30*time.Second || v.Waited > 40*time.Second {
		t.Fatalf("verdict after %s (ready %v), want not ready after 30s counted from Started", v.Waited, v.Ready)
	}
	if clock.Sub(time.Unix(100, 0)) > 15*time.Second {
		t.Errorf("the wait polled for %s of the test's clock after it was called, want about the 5s Timeout left", clock.Sub(time.Unix(100, 0)))
	}
}
