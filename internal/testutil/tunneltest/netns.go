package tunneltest

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/netnstest"
)

// namespaces creates boot and node, links them, puts TargetIP on the node
// only, and deletes both when the test ends.
func (h *Host) namespaces(t *testing.T) {
	t.Helper()
	netnstest.SweepStale("kbst")
	ns := netnstest.Add(t, "kbst", "boot", "node")
	h.Boot, h.Node = ns[0], ns[1]
	netnstest.Link(t, h.Boot, "b0", BootIP, h.Node, "n0", NodeIP, 24)
	netnstest.Run(t, "ip", "-n", h.Node, "addr", "add", TargetIP+"/32", "dev", "lo")
}

// InNetns runs fn inside the named namespace (see netnstest.In).
func InNetns(ns string, fn func() error) error { return netnstest.In(ns, fn) }
