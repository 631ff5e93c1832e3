package gate

import (
	"context"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// stallingCluster is a kube-apiserver that accepts every read and never
// answers: each call returns only when its context ends.
type stallingCluster struct{ calls atomic.Int32 }

func (s *stallingCluster) stall(ctx context.Context) error {
	s.calls.Add(1)
	<-ctx.Done()
	return ctx.Err()
}

func (s *stallingCluster) DaemonSet(ctx context.Context, _, _ string) (*appsv1.DaemonSet, error) {
	return nil, s.stall(ctx)
}
func (s *stallingCluster) Nodes(ctx context.Context) ([]corev1.Node, error) { return nil, s.stall(ctx) }
func (s *stallingCluster) Pods(ctx context.Context, _, _ string) ([]corev1.Pod, error) {
	return nil, s.stall(ctx)
}
func (s *stallingCluster) Events(ctx context.Context, _ string) ([]corev1.Event, error) {
	return nil, s.stall(ctx)
}

// TestAStalledPollEndsAtItsBudget: a poll whose node side never answers
// ends at the poll's budget, not at the wait's deadline, so a long wait
// against a stalled kube-apiserver still says what it waits for between
// polls (the first poll took the whole --timeout, and wait was silent for
// it). The wait is 20s and a poll's budget 17s here: one report comes
// before the deadline.
func TestAStalledPollEndsAtItsBudget(t *testing.T) {
	tooltest.Integration(t, "waits 20s and more of real time for a poll to end")
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23"}); err != nil {
		t.Fatal(err)
	}
	cluster := &stallingCluster{}
	var reports atomic.Int32
	opts := Options{
		Status:  hoststatus.Options{Root: root, Timeout: time.Millisecond, HealthHost: "127.0.0.2"},
		Timeout: 20 * time.Second, Interval: time.Millisecond, Nodes: cluster,
		Progress: func(Progress) { reports.Add(1) },
	}
	if budget := opts.pollBudget(); budget >= opts.Timeout {
		t.Fatalf("a poll's budget %s is not under the wait's %s: the test shows nothing", budget, opts.Timeout)
	}
	v := Wait(context.Background(), opts)
	if v.Ready {
		t.Fatal("ready against a kube-apiserver that never answers")
	}
	if reports.Load() == 0 || cluster.calls.Load() < 2 {
		t.Errorf("%d progress reports and %d reads of the cluster in a 20s wait, want a report after the first poll's budget and a second poll", reports.Load(), cluster.calls.Load())
	}
}
