//go:build e2e

package e2e

import (
	"strings"
	"testing"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// waitResult is the part of `wait --output json` the test reads.
type waitResult struct {
	Ready   bool   `json:"ready"`
	Cause   string `json:"cause"`
	Detail  string `json:"detail"`
	Fix     string `json:"fix"`
	Agents  int    `json:"agents"`
	Targets []struct {
		Name, Address, Outcome, Detail string
	} `json:"targets"`
}

// outcomes maps each dialed target's name to its outcome.
func (w waitResult) outcomes() map[string]string {
	out := map[string]string{}
	for _, t := range w.Targets {
		out[t.Name] = t.Outcome
	}
	return out
}

// TestWaitKubeconfig: `wait --kubeconfig` against the real bootstrap
// kube-apiserver lists the Service-backed webhooks registered there and
// dials each through the real tunnel, as the kube-apiserver would. With the
// webhook's pod reachable through the agent it exits 0 at once; with a
// second webhook whose backend is not up it waits out --timeout and exits 1
// with target-unreachable, naming that webhook, its address and the fix,
// while the first still counts as reachable.
func TestWaitKubeconfig(t *testing.T) {
	e := newEnv(t, bundle.ModeHTTPConnect, ipv4)
	e.startTunnel(t)
	t.Run("webhook reachable through the tunnel: ready", func(t *testing.T) {
		w, code := runWait(t, e, "2m")
		if code != 0 || !w.Ready || w.Agents != 1 {
			t.Fatalf("exit %d, %+v; want 0, ready with 1 agent", code, w)
		}
		if got := w.outcomes(); len(got) != 1 || !hasOutcome(got, "deny.e2e.konnectivity.io", "reachable") {
			t.Errorf("dialed %v, want exactly the registered webhook, reachable", got)
		}
	})
	registerDownWebhook(t, e.kas.client, e.fam.webhookIP)
	t.Run("a webhook whose backend is not up: target-unreachable", func(t *testing.T) {
		w, code := runWait(t, e, "5s")
		if code != 1 || w.Ready || w.Cause != "target-unreachable" {
			t.Fatalf("exit %d, %+v; want 1, not ready, cause target-unreachable", code, w)
		}
		for _, want := range []string{"down.e2e.konnectivity.io", e.fam.webhookIP, "refused"} {
			if !strings.Contains(w.Detail, want) {
				t.Errorf("the verdict's detail %q does not name %q", w.Detail, want)
			}
		}
		if !strings.Contains(w.Fix, "nothing listens") {
			t.Errorf("the fix %q does not say the target's pod is not listening", w.Fix)
		}
		got := w.outcomes()
		if !hasOutcome(got, "deny.e2e.konnectivity.io", "reachable") || !hasOutcome(got, "down.e2e.konnectivity.io", "refused") {
			t.Errorf("dialed %v, want the running webhook reachable and the other refused", got)
		}
	})
}

// runWait runs `konnectivity-bundle wait --kubeconfig -o json` in the
// bootstrap namespace, as the bootkube stage would on the host, and returns
// its verdict and exit code.
func runWait(t *testing.T, e *env, timeout string) (waitResult, int) {
	t.Helper()
	return runCLIJSON[waitResult](t, e.tp.boot, "wait", "--root", e.root,
		"--kubeconfig", e.kas.kubeconfig(t), "--endpoint-routing", "--timeout", timeout, "-o", "json")
}

// hasOutcome reports whether the target named for webhook has outcome.
func hasOutcome(got map[string]string, webhook, outcome string) bool {
	for name, o := range got {
		if strings.Contains(name, "webhook "+webhook+" ") {
			return o == outcome
		}
	}
	return false
}
