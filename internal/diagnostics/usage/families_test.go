package usage

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestServerFamiliesOfEveryVersion: the usage report reads the server's
// dial and packet families by the newest version's names; every supported
// version must write them under the same names, or the report would read
// an older server as idle.
func TestServerFamiliesOfEveryVersion(t *testing.T) {
	for _, v := range proxyversion.Versions {
		m := v.Metrics
		for name, got := range map[string]string{
			serverDialDuration: m.DialDuration,
			serverDialFailures: m.DialFailures,
			serverPackets:      m.StreamPackets,
		} {
			if got != name {
				t.Errorf("proxy %s writes %q where the usage report reads %q", v, got, name)
			}
		}
	}
}
