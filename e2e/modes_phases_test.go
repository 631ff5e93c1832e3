//go:build e2e

package e2e

import (
	"fmt"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A phase's timeline: callers warm up, the fault starts, ends, calls go on
// for modesTrail, then the gauges are read once more modesSettle later.
const (
	modesWarmup = 2 * time.Second
	modesFreeze = 20 * time.Second // below keepalive + grpc's 20 s ping timeout, so the server keeps the frozen agent
	modesTrail  = 10 * time.Second
	modesSettle = 5 * time.Second
)

// modePhase is one fault: fault applies it to the agent that relayed the
// most warm-up calls and returns when it ended; heal undoes what is left.
type modePhase struct {
	name  string
	fault func(t *testing.T, c *modeCase, victim int) time.Time
	heal  func(t *testing.T, c *modeCase, victim int)
}

var modePhases = []modePhase{
	{"no fault", func(*testing.T, *modeCase, int) time.Time { return time.Now() }, nil},
	{"agent frozen 20s", freezeAgent, nil},
	{"agent killed", func(_ *testing.T, c *modeCase, v int) time.Time { c.agents[v].Kill(); return time.Now() }, restartAgent},
	{"server restarted", restartServer, nil},
}

// freezeAgent SIGSTOPs the agent for modesFreeze, then SIGCONTs it.
func freezeAgent(t *testing.T, c *modeCase, v int) time.Time {
	if err := c.agents[v].Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(modesFreeze)
	if err := c.agents[v].Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	return time.Now()
}

func restartAgent(t *testing.T, c *modeCase, v int) { c.startAgent(t, v) }

// restartServer SIGKILLs the server and starts it again; the fault ends
// when the new server's socket exists.
func restartServer(t *testing.T, c *modeCase, _ int) time.Time {
	c.h.serverProc.Kill()
	c.h.startServer(t)
	return time.Now()
}

// modeResult is what one phase of one mode saw. Calls are those started
// from the fault's start to the end of the load; a failed call's duration
// is how long its caller waited for the failure.
type modeResult struct {
	ok, failed   int
	p50, p99     time.Duration // every call's duration, failures included
	recovery     time.Duration // from the fault's end to the end of the last failed call
	recovered    bool          // a call started after the last failure succeeded
	firstOK      time.Duration // from the fault's end to the end of the first call started after it that succeeded
	pendingEnd   int           // the server's pending_backend_dials when the load stopped
	pendingLater int           // and modesSettle later, no load
	rss          int64
	goroutines   int
	errors       map[string]int
	machine      string
}

// run runs one phase on a fresh server under load and reads the figures.
func (c *modeCase) run(t *testing.T, p modePhase) modeResult {
	c.freshServer(t)
	before := c.wh.sources()
	load := startCalls(c.call, c.cfg.callers, 1<<30, 10*time.Minute)
	time.Sleep(modesWarmup)
	victim := c.busiest(before)
	start := time.Now()
	end := p.fault(t, c, victim)
	time.Sleep(modesTrail)
	r := readPhase(load.stop(), start, end)
	r.pendingEnd = c.pending(t)
	time.Sleep(modesSettle)
	r.pendingLater = c.pending(t)
	r.goroutines = c.goroutines()
	if s, err := sampleProc(c.h.serverProc.Pid()); err == nil {
		r.rss = s.rss
	}
	r.machine = machine()
	figures.add("modes/"+proxyVersion.Name, c.mode+", "+p.name, r)
	t.Logf("%s, %s: %v", c.mode, p.name, r)
	if p.heal != nil {
		p.heal(t, c, victim)
	}
	c.waitReady(t)
	if p.heal == nil && p.name == modePhases[0].name && r.failed > 0 {
		t.Errorf("%s: %d calls failed without a fault: %v", c.mode, r.failed, r.errors)
	}
	if !r.recovered {
		t.Errorf("%s, %s: no call succeeded after the last failure (%d ok, %d failed: %v)", c.mode, p.name, r.ok, r.failed, r.errors)
	}
	return r
}

// readPhase summarises the calls started at or after start.
func readPhase(calls []call, start, end time.Time) modeResult {
	r := modeResult{errors: map[string]int{}}
	var ds []time.Duration
	var lastFail time.Time
	for _, c := range calls {
		if c.start.Before(start) {
			continue
		}
		ds = append(ds, c.end.Sub(c.start))
		if c.err != nil {
			r.failed++
			r.errors[errorKind(c.err)]++
			if c.end.After(lastFail) {
				lastFail = c.end
			}
			continue
		}
		r.ok++
	}
	lat := summarise(ds)
	r.p50, r.p99 = lat.median, lat.p99
	r.recovered = r.failed == 0
	for _, c := range calls {
		if c.err == nil && c.start.After(lastFail) && !c.start.Before(start) {
			r.recovered = true
			break
		}
	}
	for _, c := range calls {
		if c.err == nil && !c.start.Before(end) {
			r.firstOK = c.end.Sub(end)
			break
		}
	}
	if lastFail.After(end) {
		r.recovery = lastFail.Sub(end)
	}
	return r
}

// successRate is the share of calls that succeeded, in percent.
func (r modeResult) successRate() float64 {
	if r.ok+r.failed == 0 {
		return 0
	}
	return 100 * float64(r.ok) / float64(r.ok+r.failed)
}

// String is one phase's figure line.
func (r modeResult) String() string {
	s := fmt.Sprintf("%.1f%% of %d calls ok, p50 %v p99 %v, first ok call %v and failures stop %v after the fault (recovered %v), pending dials %d then %d, server %s %d goroutines; %s",
		r.successRate(), r.ok+r.failed, r.p50.Round(time.Millisecond), r.p99.Round(time.Millisecond), r.firstOK.Round(time.Millisecond), r.recovery.Round(time.Millisecond),
		r.recovered, r.pendingEnd, r.pendingLater, mib(r.rss), r.goroutines, r.machine)
	if len(r.errors) > 0 {
		s += fmt.Sprintf("; errors %v", r.errors)
	}
	return s
}

// modesBook collects every repetition's results for the medians.
type modesBook struct {
	results map[string]map[string][]modeResult // phase, mode
}

func newModesBook() *modesBook { return &modesBook{results: map[string]map[string][]modeResult{}} }

func (b *modesBook) add(mode, phase string, r modeResult) {
	if b.results[phase] == nil {
		b.results[phase] = map[string][]modeResult{}
	}
	b.results[phase][mode] = append(b.results[phase][mode], r)
}

// print records, per phase, each figure's median over the repetitions for
// both modes side by side.
func (b *modesBook) print(cfg modesConfig) {
	name := fmt.Sprintf("modes/%s N=%d C=%d", proxyVersion.Name, cfg.agents, cfg.callers)
	figures.add(name, "machine at the end", machine())
	for _, p := range modePhases {
		byMode := b.results[p.name]
		if len(byMode) == 0 {
			continue
		}
		for _, m := range modeMetrics {
			var cols []string
			for _, mode := range []string{"http-connect", "grpc"} {
				cols = append(cols, fmt.Sprintf("%s %s", mode, medianMetric(byMode[mode], m.value, m.format)))
			}
			figures.add(name, p.name+": "+m.name+" (median of "+fmt.Sprint(cfg.reps)+")", strings.Join(cols, " | "))
		}
	}
}

// modeMetric is one column of the side-by-side table.
type modeMetric struct {
	name   string
	value  func(modeResult) float64
	format func(float64) string
}

var (
	asMillis  = func(v float64) string { return time.Duration(v).Round(time.Millisecond).String() }
	asPercent = func(v float64) string { return fmt.Sprintf("%.1f%%", v) }
	asCount   = func(v float64) string { return fmt.Sprintf("%.0f", v) }
	asMiB     = func(v float64) string { return mib(int64(v)) }
)

var modeMetrics = []modeMetric{
	{"success", modeResult.successRate, asPercent},
	{"p50", func(r modeResult) float64 { return float64(r.p50) }, asMillis},
	{"p99", func(r modeResult) float64 { return float64(r.p99) }, asMillis},
	{"first ok call after the fault", func(r modeResult) float64 { return float64(r.firstOK) }, asMillis},
	{"failures stop after", func(r modeResult) float64 { return float64(r.recovery) }, asMillis},
	{"pending dials at load end", func(r modeResult) float64 { return float64(r.pendingEnd) }, asCount},
	{"pending dials 5s later", func(r modeResult) float64 { return float64(r.pendingLater) }, asCount},
	{"server RSS", func(r modeResult) float64 { return float64(r.rss) }, asMiB},
	{"server goroutines", func(r modeResult) float64 { return float64(r.goroutines) }, asCount},
}

// medianMetric is the median of value over rs (the mean of the middle two
// for an even count), "-" when rs is empty.
func medianMetric(rs []modeResult, value func(modeResult) float64, format func(float64) string) string {
	if len(rs) == 0 {
		return "-"
	}
	vs := make([]float64, 0, len(rs))
	for _, r := range rs {
		vs = append(vs, value(r))
	}
	sort.Float64s(vs)
	mid := len(vs) / 2
	if len(vs)%2 == 0 {
		return format((vs[mid-1] + vs[mid]) / 2)
	}
	return format(vs[mid])
}
