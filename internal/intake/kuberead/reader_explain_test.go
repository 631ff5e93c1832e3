package kuberead

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestExplainNamesAPassedDeadline: an error that comes when the read's
// deadline has passed names the bound, even before the context's timer
// marks it done (a cut body's decode error, as a dripping kube-apiserver
// gives under load); one that comes before the deadline stays as it was.
func TestExplainNamesAPassedDeadline(t *testing.T) {
	r := &Reader{bound: Bound{Timeout: 300 * time.Millisecond}}
	cut := errors.New("unexpected end of JSON input")
	for _, tc := range []struct {
		name     string
		deadline time.Time
		named    bool
	}{
		{"passed", time.Now().Add(-time.Millisecond), true},
		{"to come", time.Now().Add(time.Hour), false},
	} {
		// A context whose deadline is set but whose Err is not yet: the
		// moment between the deadline and its timer.
		ctx := deadlineOnly{Context: context.Background(), d: tc.deadline}
		got := r.explain(ctx, cut)
		if named := strings.Contains(got.Error(), "no answer within 300ms"); named != tc.named || !errors.Is(got, cut) {
			t.Errorf("%s: explain gave %q; want the bound named: %v, the error kept", tc.name, got, tc.named)
		}
	}
}

// deadlineOnly has a deadline its Err does not report yet.
type deadlineOnly struct {
	context.Context
	d time.Time
}

func (c deadlineOnly) Deadline() (time.Time, bool) { return c.d, true }
