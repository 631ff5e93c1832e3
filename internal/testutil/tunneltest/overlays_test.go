package tunneltest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
)

// TestEveryOverlayRunsOnItsTarget renders every shipped overlay that
// deploys a tunnel for every proxy version, and runs the rendered server
// and agent command lines on the real binaries of the version the bundle
// targets: a flag the binary lacks makes it exit at once (`unknown flag`),
// which is how a v0.36 flag crash-loops a v0.28 server. The server must
// stay up and the agent must connect. upi names its own version, so both
// of its runs are on v0.28.
func TestEveryOverlayRunsOnItsTarget(t *testing.T) {
	for _, overlay := range kustbuild.Overlays() {
		if overlay == "sno" {
			continue // bootstrap-in-place: nothing to run
		}
		for _, v := range proxyversion.Versions {
			t.Run(overlay+"/"+v.Name, func(t *testing.T) {
				h := tunneltest.NewWith(t, tunneltest.Options{Overlay: overlay, IPv6: overlay == "ipv6", Version: v})
				h.StartServer(t)
				h.StartAgent(t)
				err := tunneltest.Eventually(time.Minute, func() error {
					rep := hoststatus.Run(context.Background(), hoststatus.Options{Root: h.Root, Dial: h.DialBoot, Timeout: 2 * time.Second})
					if rep.Agents != 1 {
						return fmt.Errorf("%d agents connected", rep.Agents)
					}
					return nil
				})
				if err != nil {
					t.Fatalf("proxy %s running %s's argv: %v", h.Version, overlay, err)
				}
			})
		}
	}
}
