//go:build e2e

package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/netnstest"
)

// maxScaleNodes is how many node namespaces the scale addressing plan has
// room for: nodes take .2 to .201 of each /24, the webhook .254.
const maxScaleNodes = 200

// scaleFam is the scale suite's IPv4 plan: the bootstrap IP is the one the
// tunnel suite uses, node i is 192.0.2.(i+2) towards the bootstrap host and
// 198.51.100.(i+2) towards the pod network, the webhook pod 198.51.100.254.
var scaleFam = func() family {
	f := ipv4
	f.nodeIP, f.nodePodIP, f.webhookIP = scaleNodeIP(0), scalePodSideIP(0), "198.51.100.254"
	return f
}()

func scaleNodeIP(i int) string    { return fmt.Sprintf("192.0.2.%d", i+2) }
func scalePodSideIP(i int) string { return fmt.Sprintf("198.51.100.%d", i+2) }

// scaleTopology is one bootstrap host, n nodes and one pod network, each a
// namespace. Nodes hang off a bridge in the bootstrap namespace (which
// carries the bootstrap IP) and a bridge in the pod namespace (which carries
// the webhook's IP), like nodes on one machine network and one pod network.
// The bootstrap namespace has no address in the pod network, and nodes do
// not forward, so it has no route there: webhook calls must take the tunnel.
type scaleTopology struct {
	*topology
	nodes []string // node namespaces; nodes[0] is also tp.node
}

// newScaleTopology creates the namespaces and links; they are deleted when t ends.
func newScaleTopology(t *testing.T, n int) *scaleTopology {
	t.Helper()
	if n < 1 || n > maxScaleNodes {
		t.Fatalf("scale topology: %d nodes, the addressing plan has room for 1..%d", n, maxScaleNodes)
	}
	suffixes := []string{"boot", "pod"}
	for i := range n {
		suffixes = append(suffixes, fmt.Sprintf("n%d", i))
	}
	ns := netnstest.Add(t, "kbe2e", suffixes...)
	st := &scaleTopology{topology: &topology{fam: scaleFam, boot: ns[0], pod: ns[1], node: ns[2]}, nodes: ns[2:]}
	ipBatch(t, st.boot, "link add br0 type bridge", "addr add "+scaleFam.bootIP+"/24 dev br0", "link set br0 up")
	ipBatch(t, st.pod, "link add br0 type bridge", "addr add "+scaleFam.webhookIP+"/24 dev br0", "link set br0 up")
	var boot, pod []string
	for i, node := range st.nodes {
		ipBatch(t, node,
			fmt.Sprintf("link add n0 type veth peer name b%d netns %s", i, st.boot),
			fmt.Sprintf("link add n1 type veth peer name p%d netns %s", i, st.pod),
			"addr add "+scaleNodeIP(i)+"/24 dev n0", "addr add "+scalePodSideIP(i)+"/24 dev n1",
			"link set n0 up", "link set n1 up")
		boot = append(boot, fmt.Sprintf("link set b%d master br0 up", i))
		pod = append(pod, fmt.Sprintf("link set p%d master br0 up", i))
	}
	ipBatch(t, st.boot, boot...)
	ipBatch(t, st.pod, pod...)
	return st
}

// ipBatch runs ip commands inside ns in one `ip -batch` process: hundreds of
// nodes would otherwise cost thousands of process starts.
func ipBatch(t *testing.T, ns string, cmds ...string) {
	t.Helper()
	cmd := exec.Command("ip", "-n", ns, "-batch", "-")
	cmd.Stdin = strings.NewReader(strings.Join(cmds, "\n") + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ip -n %s -batch: %v\n%s\ncommands:\n%s", ns, err, out, strings.Join(cmds, "\n"))
	}
}
