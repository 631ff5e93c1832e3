package hoststatus_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// want is what one scenario must report: the severity of named checks and
// whether the tunnel is usable.
type want struct {
	usable   bool
	agents   int
	checks   map[string]framework.Severity
	detailed map[string]string // check name -> substring of its detail
}

// TestStatusAgainstRealServerAndAgent runs the real proxy-server and
// proxy-agent from a rendered root and checks each scenario's report.
func TestStatusAgainstRealServerAndAgent(t *testing.T) {
	h := tunneltest.New(t, "ipv4")
	status := func(t *testing.T, now time.Time) *hoststatus.Report {
		t.Helper()
		opts := hoststatus.Options{Root: h.Root, Dial: h.DialBoot, Timeout: 2 * time.Second}
		if !now.IsZero() {
			opts.Now = func() time.Time { return now }
		}
		return hoststatus.Run(context.Background(), opts)
	}

	t.Run("server down", func(t *testing.T) {
		check(t, status(t, time.Time{}), want{
			checks: map[string]framework.Severity{"rendered files": framework.Info, "egress selector": framework.Info,
				"socket": framework.Error, "server health": framework.Error, "agents": framework.Error, "certificates": framework.Info},
			detailed: map[string]string{"socket": "no such file or directory", "server health": "connection refused"},
		})
	})
	h.StartServer(t)
	t.Run("no agent", func(t *testing.T) {
		check(t, status(t, time.Time{}), want{
			checks: map[string]framework.Severity{"socket": framework.Info, "server health": framework.Info,
				"server ready": framework.Warning, "agents": framework.Error},
			detailed: map[string]string{"agents": "no agent connected", "server ready": "no connection to any proxy agent"},
		})
	})
	h.StartAgent(t)
	t.Run("healthy", func(t *testing.T) {
		var rep *hoststatus.Report
		if err := tunneltest.Eventually(30*time.Second, func() error {
			rep = status(t, time.Time{})
			if rep.Agents != 1 {
				return fmt.Errorf("%d agents connected", rep.Agents)
			}
			// status reads /readyz before the metrics, so one run can see
			// the agent counted but the server not yet ready: wait for both.
			for _, c := range rep.Checks {
				if result.Rule(c) == "server ready" && c.Severity != framework.Info {
					return fmt.Errorf("server ready: %s", c.Message)
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		check(t, rep, want{usable: true, agents: 1,
			checks: map[string]framework.Severity{"rendered files": framework.Info, "socket": framework.Info, "egress selector": framework.Info,
				"server health": framework.Info, "server ready": framework.Info, "agents": framework.Info, "certificates": framework.Info},
			detailed: map[string]string{"agents": "1 agent(s) connected (ready_backends{default}=1; http://127.0.0.1:8095/metrics)",
				// what render printed: 12 files recorded in its state, and the state file
				"rendered files": "13 files as render wrote them (12 recorded in /var/lib/konnectivity-bundle/state.json, plus that state file)"},
		})
	})
	t.Run("certificates expired", func(t *testing.T) {
		check(t, status(t, time.Now().Add(48*time.Hour)), want{agents: 1,
			checks:   map[string]framework.Severity{"agents": framework.Info, "certificates": framework.Error},
			detailed: map[string]string{"certificates": "expired at"},
		})
	})
	t.Run("socket missing", func(t *testing.T) {
		if err := os.Remove(h.Socket); err != nil {
			t.Fatal(err)
		}
		check(t, status(t, time.Time{}), want{agents: 1,
			checks:   map[string]framework.Severity{"socket": framework.Error, "server health": framework.Info, "agents": framework.Info},
			detailed: map[string]string{"socket": "no such file or directory"},
		})
	})
}

func check(t *testing.T, rep *hoststatus.Report, w want) {
	t.Helper()
	var text strings.Builder
	_ = rep.WriteText(&text)
	if rep.Usable != w.usable || rep.Agents != w.agents {
		t.Errorf("usable=%v agents=%d, want usable=%v agents=%d", rep.Usable, rep.Agents, w.usable, w.agents)
	}
	got := map[string]*framework.Result{}
	for _, c := range rep.Checks {
		if prev, dup := got[result.Rule(c)]; !dup || prev.Severity == framework.Info {
			got[result.Rule(c)] = c
		}
		if c.Severity != framework.Info && result.Fix(c) == "" {
			t.Errorf("check %s is a %s without a hint", result.Rule(c), c.Severity)
		}
	}
	for name, sev := range w.checks {
		if got[name].Severity != sev {
			t.Errorf("check %q: %s (%s), want %s", name, got[name].Severity, got[name].Message, sev)
		}
	}
	for name, sub := range w.detailed {
		if !strings.Contains(got[name].Message, sub) {
			t.Errorf("check %q detail %q lacks %q", name, got[name].Message, sub)
		}
	}
	verdict := "tunnel usable"
	if !w.usable {
		verdict = "tunnel NOT usable"
	}
	if !strings.Contains(text.String(), verdict) {
		t.Errorf("text output lacks %q", verdict)
	}
	if t.Failed() {
		t.Logf("report:\n%s", text.String())
	}
}
