//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
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

var nsCounter int

// newTopology creates the namespaces and links and deletes them when the test ends.
func newTopology(t *testing.T, fam family) *topology {
	t.Helper()
	nsCounter++
	p := fmt.Sprintf("kbe2e%d-%d", os.Getpid(), nsCounter)
	tp := &topology{fam: fam, boot: p + "-boot", node: p + "-node", pod: p + "-pod"}
	for _, ns := range []string{tp.boot, tp.node, tp.pod} {
		run(t, "ip", "netns", "add", ns)
		name := ns
		t.Cleanup(func() { deleteNetns(t, name) })
		run(t, "ip", "-n", ns, "link", "set", "lo", "up")
	}
	link(t, tp.boot, "b0", fam.bootIP, tp.node, "n0", fam.nodeIP, fam.prefix)
	link(t, tp.node, "n1", fam.nodePodIP, tp.pod, "p0", fam.webhookIP, fam.prefix)
	return tp
}

// link joins two namespaces with a veth pair and addresses both ends.
func link(t *testing.T, nsA, ifA, ipA, nsB, ifB, ipB string, prefix int) {
	t.Helper()
	run(t, "ip", "link", "add", ifA, "netns", nsA, "type", "veth", "peer", "name", ifB, "netns", nsB)
	for _, e := range [][3]string{{nsA, ifA, ipA}, {nsB, ifB, ipB}} {
		args := []string{"-n", e[0], "addr", "add", fmt.Sprintf("%s/%d", e[2], prefix), "dev", e[1]}
		if strings.Contains(e[2], ":") {
			args = append(args, "nodad") // usable at once, no duplicate address detection delay
		}
		run(t, "ip", args...)
		run(t, "ip", "-n", e[0], "link", "set", e[1], "up")
	}
}

// deleteNetns kills whatever still runs in the namespace, then deletes it.
func deleteNetns(t *testing.T, ns string) {
	if out, err := exec.Command("ip", "netns", "pids", ns).Output(); err == nil {
		self := fmt.Sprint(os.Getpid()) // a retired inNetns thread may still be listed
		for _, pid := range strings.Fields(string(out)) {
			if pid == self {
				continue
			}
			_ = exec.Command("kill", "-KILL", pid).Run()
		}
	}
	if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil {
		t.Errorf("delete network namespace %s: %v: %s", ns, err, out)
	}
}

// sweepStaleNetns deletes namespaces an earlier, killed run left behind:
// names are kbe2e<pid>-..., and only those whose test process is gone go.
func sweepStaleNetns() {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "kbe2e") {
			continue
		}
		var pid int
		if _, err := fmt.Sscanf(f[0], "kbe2e%d-", &pid); err != nil || pid == os.Getpid() {
			continue
		}
		if err := unix.Kill(pid, 0); err == unix.ESRCH {
			fmt.Fprintf(os.Stderr, "e2e: deleting network namespace %s left by dead run %d\n", f[0], pid)
			_ = exec.Command("ip", "netns", "del", f[0]).Run()
		}
	}
}

// run runs a setup command and fails the test with its output if it fails.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// inNetns runs fn on an OS thread switched into the named namespace. The
// thread is never unlocked, so the runtime discards it afterwards and no other
// goroutine ever runs in the wrong namespace. Sockets created by fn stay in ns.
func inNetns(ns string, fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		f, err := os.Open("/run/netns/" + ns)
		if err != nil {
			errc <- fmt.Errorf("open network namespace %s: %w", ns, err)
			return
		}
		defer f.Close()
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("enter network namespace %s: %w", ns, err)
			return
		}
		errc <- fn()
	}()
	return <-errc
}

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
