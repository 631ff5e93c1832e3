package proxyversion

import (
	"slices"
	"testing"
)

// TestFromMetrics: a page with every family a version writes is read as
// that version, whatever the table holds, or as an older one that exports
// the same metrics (the page cannot tell them apart, and a reader needs
// only the names); a page with none of the families that tell versions
// apart is the oldest.
func TestFromMetrics(t *testing.T) {
	for _, v := range Versions {
		t.Run(v.Name, func(t *testing.T) {
			fams := v.Metrics.Families()
			if got := FromMetrics(func(f string) bool { return slices.Contains(fams, f) }); got != v && got.Metrics != v.Metrics {
				t.Errorf("a page with %s's families read as %s, which names its metrics otherwise", v, got)
			}
		})
	}
	if got := FromMetrics(func(string) bool { return false }); got != Versions[0] {
		t.Errorf("an empty page read as %s, want the oldest, %s", got, Versions[0])
	}
}

// TestFamiliesListsEveryName: Families misses no name a version declares,
// so FromMetrics and the readers that ask for Families see them all.
func TestFamiliesListsEveryName(t *testing.T) {
	for _, v := range Versions {
		m := v.Metrics
		for _, name := range []string{m.AgentStreams, m.ReadyBackends, m.ReadyBackendConnections, m.PendingDials, m.DialFailures, m.DialDuration, m.StreamPackets} {
			if name != "" && !slices.Contains(m.Families(), name) {
				t.Errorf("%s: Families lacks %s", v, name)
			}
		}
	}
}
