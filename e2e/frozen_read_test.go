//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Failure kinds of a webhook call through a frozen agent, from the
// kube-apiserver's error text.
const (
	kindDialTimeout     = "dial timeout (server's 504)"
	kindGRPCDialTimeout = "dial timeout (server's DIAL_RSP)"
	kindWebhookTimeout  = "webhook timeout"
	kindCallerTimeout   = "caller's own 10s timeout"
	kindOther           = "other"
)

// frozenKind names a failure. Only the kube-apiserver's own verdicts name
// the webhook; a call it had not answered when admit's 10 s ran out is the
// caller's timeout.
func frozenKind(err error, m frozenMode) string {
	s := err.Error()
	timedOut := strings.Contains(s, "deadline exceeded") || strings.Contains(s, "Timeout exceeded")
	switch {
	case strings.Contains(s, m.boundText):
		return m.boundKind
	case timedOut && !strings.Contains(s, "failed calling webhook"):
		return kindCallerTimeout
	case timedOut:
		return kindWebhookTimeout
	}
	return kindOther
}

// frozenRun is what one phase saw.
type frozenRun struct {
	failedAfter  map[string][]time.Duration // by kind: calls started after the freeze that failed, and how long each took
	okAfter      int
	failedBefore int             // calls in flight at the freeze that failed
	carried      [2]int          // warm-up calls each agent relayed
	frozen       int             // which agent was frozen
	pendingEnd   int             // the server's pending dials when the load ended
	pendingLater int             // and once the rendered bound has passed with no load
	drain        *frozenDrain    // how the dials still pending then went
	cancelled    []time.Duration // dials the kube-apiserver cancelled (grpc), how long each had waited
	perSecond    float64         // successful calls per second after the freeze
}

// read sorts the calls into those in flight at the freeze and those after,
// and logs the first error of each kind (the figures give only counts).
func (r *frozenRun) read(t *testing.T, calls []call, freeze time.Time, m frozenMode) {
	r.failedAfter = map[string][]time.Duration{}
	var first, last time.Time
	for _, c := range calls {
		switch {
		case c.start.Before(freeze):
			if c.err != nil && c.end.After(freeze) {
				r.failedBefore++
			}
		case c.err != nil:
			k := frozenKind(c.err, m)
			if len(r.failedAfter[k]) == 0 {
				t.Logf("first %s after the freeze: %v", k, c.err)
			}
			r.failedAfter[k] = append(r.failedAfter[k], c.end.Sub(c.start))
		default:
			r.okAfter++
			if first.IsZero() {
				first = c.start
			}
			last = c.end
		}
	}
	if span := last.Sub(first); span > 0 {
		r.perSecond = float64(r.okAfter) / span.Seconds()
	}
}

// assertDialing checks the dialing webhook's phase against the flag and
// the mode.
func (r *frozenRun) assertDialing(t *testing.T, m frozenMode, bounded bool) {
	if r.okAfter == 0 {
		t.Errorf("no call succeeded after the freeze through the live agent")
	}
	dial, hung := len(r.failedAfter[m.boundKind]), len(r.failedAfter[kindWebhookTimeout])
	other, late := len(r.failedAfter[kindOther]), len(r.failedAfter[kindCallerTimeout])
	if bounded {
		other += late // the bound answers 4 s before the caller gives up
	} else {
		hung += late // unanswered at 10 s: it waited out the webhook's 8 s, and a busy kube-apiserver was slow to say so
	}
	if other > 0 {
		t.Errorf("%d calls after the freeze failed otherwise than by a dial or webhook timeout", other)
	}
	if bounded {
		if dial == 0 || hung > 0 {
			t.Errorf("with the bound: %d calls failed with the server's dial timeout and %d waited out the webhook's timeout; want some and none", dial, hung)
		}
		if r.pendingLater != 0 {
			t.Errorf("with the bound: %d dials still pending on the server once it passed", r.pendingLater)
		}
		if m.cancels && len(r.cancelled) > 0 {
			t.Errorf("with the bound: the kube-apiserver cancelled %d dials itself; want the server to end every one first", len(r.cancelled))
		}
		return
	}
	if dial > 0 || hung == 0 {
		t.Errorf("without a bound: %d calls failed with the server's dial timeout and %d waited out the webhook's timeout; want none and some", dial, hung)
	}
	if r.pendingLater == 0 {
		t.Errorf("without a bound: no dial left pending on the server after every caller gave up")
	}
	if m.cancels && len(r.cancelled) == 0 {
		t.Errorf("without a bound: the kube-apiserver cancelled no pending dial while they drained")
	}
}

// figures records what the phase saw.
func (r *frozenRun) figures(e *env, name string) {
	var kinds []string
	for _, k := range []string{kindDialTimeout, kindGRPCDialTimeout, kindWebhookTimeout, kindCallerTimeout, kindOther} {
		if ds := r.failedAfter[k]; len(ds) > 0 {
			kinds = append(kinds, fmt.Sprintf("%d %s (%s)", len(ds), k, spreadOf(ds)))
		}
	}
	if len(kinds) == 0 {
		kinds = []string{"none failed"}
	}
	cancelled := ""
	if len(r.cancelled) > 0 {
		cancelled = fmt.Sprintf("; %d dials cancelled by the kube-apiserver after %s", len(r.cancelled), spreadOf(r.cancelled))
	}
	e.figure(name, fmt.Sprintf("warm-up calls per agent %v, froze agent %d; %d in flight failed; after: %d ok (%.0f/s), %s; pending dials at end %d, %v later %d, %v%s",
		r.carried, r.frozen, r.failedBefore, r.okAfter, r.perSecond, strings.Join(kinds, ", "), r.pendingEnd, frozenRecheck, r.pendingLater, r.drain, cancelled))
}

// spreadOf is the shortest and longest of ds.
func spreadOf(ds []time.Duration) string {
	lo, hi := ds[0], ds[0]
	for _, d := range ds {
		lo, hi = min(lo, d), max(hi, d)
	}
	return fmt.Sprintf("%s to %s", lo.Round(10*time.Millisecond), hi.Round(10*time.Millisecond))
}

// setWebhookTimeout sets the registered webhook's timeoutSeconds.
func setWebhookTimeout(t *testing.T, c kubernetes.Interface, seconds int32) {
	t.Helper()
	ctx := context.Background()
	api := c.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	cfg, err := api.Get(ctx, webhookCfgName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Webhooks[0].TimeoutSeconds = &seconds
	if _, err := api.Update(ctx, cfg, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// machine names the CPU and the load, for figures.
func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	load, _ := os.ReadFile("/proc/loadavg")
	return fmt.Sprintf("%s, load average %s", cpu, strings.Join(strings.Fields(string(load))[:3], " "))
}
