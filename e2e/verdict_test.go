//go:build e2e

package e2e

import (
	"context"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/egressprobe"
)

// frozenFix is in wait's fix when it names a stuck agent.
const frozenFix = "an agent is frozen or cut off"

// TestVerdictTargetDrops: every agent healthy, `wait --target` at an
// address whose SYNs the pod network drops. With --dial-timeout 8s the
// agent's own 5 s dial timeout answers first; with 3s the test dial gives
// up while the agent still dials, and the gate waits past the agent's
// dial timeout before judging. Both are target-drops, never a frozen
// agent (which the server's absolute pending dials, counting the test
// dial itself, used to suggest at 3s).
func TestVerdictTargetDrops(t *testing.T) {
	v := newVerdictHost(t, bundle.ModeHTTPConnect, 1)
	for _, dial := range []string{"8s", "3s"} {
		t.Run("dial-timeout "+dial, func(t *testing.T) {
			w, code := v.wait(t, v.target(droppedPort), dial)
			assertDrops(t, w, code)
		})
	}
}

func assertDrops(t *testing.T, w waitResult, code int) {
	t.Helper()
	if code != 1 || w.Ready || w.Cause != "target-drops" {
		t.Fatalf("exit %d, cause %q; want 1, target-drops\n  %s\n  fix: %s", code, w.Cause, w.Detail, w.Fix)
	}
	if !strings.Contains(w.Fix, "drops packets or is not listening") || strings.Contains(w.Fix, frozenFix) || strings.Contains(w.Fix, "delete its pod") {
		t.Errorf("fix %q; want the target's, naming no agent", w.Fix)
	}
}

// TestVerdictLeakedDials: two agents; one is frozen (SIGSTOP) while dials
// go through the socket, then killed and replaced, as deleting its pod
// would. On v0.28 in http-connect mode the dials it took stay pending on
// the server (TODO(#126) in its tunnel.go); on v0.36 they are dropped with
// the agent. Either way a later `wait --target` at a dropping address,
// every agent healthy, is target-drops: the leaked dials do not change
// across the test dial, so no agent is named.
func TestVerdictLeakedDials(t *testing.T) {
	v := newVerdictHost(t, bundle.ModeHTTPConnect, 2)
	frozen := v.agents[0]
	if err := frozen.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 5 && v.pending(t) < 2; round++ {
		v.probeMany(t, 8, 2*time.Second)
	}
	during := v.pending(t)
	frozen.Kill()
	v.startAgent(t, 0)
	v.waitAgents(t, 2)
	time.Sleep(8 * time.Second) // past v0.36's 6s dial bound: what is left then is a leak
	leaked := v.pending(t)
	t.Logf("figure: pending_backend_dials %d while the agent was frozen, %d after it was killed and replaced (proxy %s)", during, leaked, proxyVersion)
	if during == 0 {
		t.Fatal("no dial went to the frozen agent: the case was not set up")
	}
	switch keeps := proxyVersion.KeepsDepartedDials; {
	case keeps && leaked == 0:
		t.Fatalf("proxy %s dropped the departed agent's dials; proxyversion.Version.KeepsDepartedDials says it keeps them", proxyVersion)
	case !keeps && leaked != 0:
		t.Fatalf("proxy %s kept %d dials of a departed agent; proxyversion.Version.KeepsDepartedDials says it drops them", proxyVersion, leaked)
	}
	for _, dial := range []string{"8s", "3s"} {
		t.Run("dial-timeout "+dial, func(t *testing.T) {
			w, code := v.wait(t, v.target(droppedPort), dial)
			assertDrops(t, w, code)
		})
	}
	t.Logf("figure: pending_backend_dials %d after the waits", v.pending(t))
}

// probeMany makes n dials at once through the server's socket, as the
// kube-apiserver does, each given up after timeout.
func (v *verdictHost) probeMany(t *testing.T, n int, timeout time.Duration) {
	t.Helper()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = egressprobe.Probe(context.Background(), egressprobe.Options{Root: v.root, Target: v.target(listeningPort), Timeout: timeout})
		}()
	}
	wg.Wait()
}

// TestVerdictFrozenAgent: the only agent frozen (SIGSTOP); `wait --target`
// at a listening address names it, on the server's evidence, with the
// fix; on v0.28 in http-connect mode the fix adds that only a
// proxy-server restart clears the dials it took.
func TestVerdictFrozenAgent(t *testing.T) {
	v := newVerdictHost(t, bundle.ModeHTTPConnect, 1)
	if err := v.agents[0].Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = v.agents[0].Signal(syscall.SIGCONT) })
	w, code := v.wait(t, v.target(listeningPort), "5s")
	if code != 1 || w.Cause != "target-unreachable" || !strings.Contains(w.Detail, "an agent took the dial and never answered it") ||
		!strings.Contains(w.Fix, frozenFix) || !strings.Contains(w.Fix, "delete its pod") {
		t.Fatalf("exit %d, cause %q; want 1, target-unreachable naming a frozen agent\n  %s\n  fix: %s", code, w.Cause, w.Detail, w.Fix)
	}
	restart := strings.Contains(w.Fix, "only a proxy-server restart clears them") && strings.Contains(w.Fix, "crictl stop $(crictl ps -q --name konnectivity-server)")
	if restart != proxyVersion.KeepsDepartedDials {
		t.Errorf("proxy %s: the fix says a restart clears the leaked dials: %v, want %v: %s", proxyVersion, restart, proxyVersion.KeepsDepartedDials, w.Fix)
	}
}
