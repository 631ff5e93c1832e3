package tunneltest

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/netnstest"
)

// namespaces creates boot and node (and the outsider when asked), links
// each to boot, puts the target address on the node only, and deletes them
// all when the test ends.
func (h *Host) namespaces(t *testing.T, outsider bool) {
	t.Helper()
	netnstest.SweepStale("kbst")
	names := []string{"boot", "node"}
	if outsider {
		names = append(names, "out")
	}
	ns := netnstest.Add(t, "kbst", names...)
	h.Boot, h.Node = ns[0], ns[1]
	a := h.Addr
	netnstest.Link(t, h.Boot, "b0", a.Boot, h.Node, "n0", a.Node, a.bits)
	host := "/32"
	if a.bits == 64 {
		host = "/128"
	}
	netnstest.Run(t, "ip", "-n", h.Node, "addr", "add", a.Target+host, "dev", "lo")
	if outsider {
		h.Outsider = ns[2]
		netnstest.Link(t, h.Boot, "b1", a.outsiderBoot, h.Outsider, "o0", a.Outsider, a.bits)
		// The outsider dials the bootstrap host's address on b0, as a
		// machine routed in from elsewhere would.
		netnstest.Run(t, "ip", "-n", h.Outsider, "route", "add", "default", "via", a.outsiderBoot)
	}
}

// InNetns runs fn inside the named namespace (see netnstest.In).
func InNetns(ns string, fn func() error) error { return netnstest.In(ns, fn) }
