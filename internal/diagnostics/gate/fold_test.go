package gate

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/nodeverdict"
)

// TestFoldOnlyRunsInARow: a progress line folds into "nothing new, said N
// times" only when the report just before said the same line; N counts the
// lines printed in the run, the full one first; the verdict a wait ends
// on during a run gives the count so far. Reports are 6s apart on the
// test's clock, so none is held back for being under 5s.
func TestFoldOnlyRunsInARow(t *testing.T) {
	a := &Verdict{Cause: NotRendered, Detail: "no state file"}
	a2 := &Verdict{Cause: NotRendered, Detail: "the state file is unreadable"}
	b := &Verdict{Cause: ServerNotRunning, Detail: "connection refused"}
	n := nodeverdict.Unseeable("no kubeconfig")
	withNodes := func(v *Verdict) *Verdict { c := *v; c.Nodes = n; return &c }
	aN, bN := withNodes(a), withNodes(b)
	cases := []struct {
		name    string
		reports []*Verdict
		want    []string // each line: what it waits for, then its detail or its count
		said    int      // the verdict's count, with the last report as the verdict
	}{
		{"A, B, A: three lines", []*Verdict{a, b, a}, []string{"root: no state file", "server: connection refused", "root: no state file"}, 0},
		{"A, A, B", []*Verdict{a, a, b}, []string{"root: no state file", "root: said 2", "server: connection refused"}, 0},
		{"A, A, A: the run so far", []*Verdict{a, a, a}, []string{"root: no state file", "root: said 2", "root: said 3"}, 3},
		{"one detail, another, the first", []*Verdict{a, a2, a}, []string{"root: no state file", "root: the state file is unreadable", "root: no state file"}, 0},
		{"a single line is no run", []*Verdict{b, a}, []string{"server: connection refused", "root: no state file"}, 0},
		{"node side held back is not counted", []*Verdict{aN, aN, aN, bN},
			[]string{"root: no state file", "nodes: cannot see the node side: no kubeconfig", "root: said 2", "root: said 3", "server: connection refused", "nodes: said 2"}, 0},
		{"node side gone in between starts over", []*Verdict{aN, a, aN},
			[]string{"root: no state file", "nodes: cannot see the node side: no kubeconfig", "root: said 2", "root: said 3", "nodes: cannot see the node side: no kubeconfig"}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := time.Unix(0, 0)
			var got []string
			w := &waiter{start: clock, opts: Options{Timeout: time.Minute, Now: func() time.Time { clock = clock.Add(6 * time.Second); return clock }, Progress: func(p Progress) {
				what := map[string]string{"a usable rendered root": "root", "the server": "server", "agents, per node": "nodes"}
				for long, short := range what {
					if strings.HasPrefix(p.Waiting, long) {
						p.Waiting = short
					}
				}
				if p.Repeats > 0 {
					got = append(got, p.Waiting+": said "+strconv.Itoa(p.Repeats+1))
				} else {
					got = append(got, p.Waiting+": "+p.Detail)
				}
			}}}
			for _, v := range tc.reports {
				w.report(v)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("progress lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			last := *tc.reports[len(tc.reports)-1]
			if w.finish(&last); last.Said != tc.said {
				t.Errorf("the verdict's count %d, want %d", last.Said, tc.said)
			}
		})
	}
}
