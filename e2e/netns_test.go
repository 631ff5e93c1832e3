//go:build e2e

package e2e

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/netnstest"
)

// family is one IP family's addressing plan. Every address is a documentation
// (RFC 5737 / RFC 3849) or ULA address and exists only inside the namespaces.
type family struct {
	name        string
	bootIP      string // bootstrap host, on the bootstrap<->node link
	nodeIP      string // node, on the bootstrap<->node link
	nodePodIP   string // node, on the node<->pod link (the pod network gateway)
	webhookIP   string // the pod running the webhook
	prefix      int
	loopback    string
	serviceCIDR string
}

var (
	ipv4 = family{name: "ipv4", bootIP: "192.0.2.1", nodeIP: "192.0.2.2", nodePodIP: "198.51.100.1",
		webhookIP: "198.51.100.2", prefix: 24, loopback: "127.0.0.1", serviceCIDR: "10.96.0.0/24"}
	ipv6 = family{name: "ipv6", bootIP: "2001:db8:b::1", nodeIP: "2001:db8:b::2", nodePodIP: "2001:db8:d::1",
		webhookIP: "2001:db8:d::2", prefix: 64, loopback: "::1", serviceCIDR: "fd00:96::/112"}
)

// topology is one bootstrap host, one node and one pod network, each a
// network namespace. The pod network is reachable from the node only.
type topology struct {
	fam             family
	boot, node, pod string // namespace names
}

// newTopology creates the namespaces and links and deletes them when the test ends.
func newTopology(t *testing.T, fam family) *topology {
	t.Helper()
	ns := netnstest.Add(t, "kbe2e", "boot", "node", "pod")
	tp := &topology{fam: fam, boot: ns[0], node: ns[1], pod: ns[2]}
	netnstest.Link(t, tp.boot, "b0", fam.bootIP, tp.node, "n0", fam.nodeIP, fam.prefix)
	netnstest.Link(t, tp.node, "n1", fam.nodePodIP, tp.pod, "p0", fam.webhookIP, fam.prefix)
	return tp
}

// sweepStaleNetns deletes namespaces an earlier, killed run left behind.
func sweepStaleNetns() { netnstest.SweepStale("kbe2e") }

// inNetns runs fn inside the named namespace (see netnstest.In).
func inNetns(ns string, fn func() error) error { return netnstest.In(ns, fn) }

// nsDialer dials from inside a namespace; used by client-go to reach an
// apiserver that listens on a namespace's loopback.
func nsDialer(ns string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var c net.Conn
		err := inNetns(ns, func() error {
			var err error
			d := net.Dialer{Timeout: 5 * time.Second}
			c, err = d.DialContext(ctx, network, addr)
			return err
		})
		return c, err
	}
}

// nsListen opens a TCP listener inside a namespace.
func nsListen(ns, addr string) (net.Listener, error) {
	var l net.Listener
	err := inNetns(ns, func() error {
		var err error
		l, err = net.Listen("tcp", addr)
		return err
	})
	return l, err
}
