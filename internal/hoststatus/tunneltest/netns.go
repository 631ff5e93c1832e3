package tunneltest

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

var nsCounter atomic.Int64

// namespaces creates boot and node, links them, puts TargetIP on the node
// only, and deletes both when the test ends.
func (h *Host) namespaces(t *testing.T) {
	t.Helper()
	p := fmt.Sprintf("kbst%d-%d", os.Getpid(), nsCounter.Add(1))
	h.Boot, h.Node = p+"-boot", p+"-node"
	for _, ns := range []string{h.Boot, h.Node} {
		run(t, "ip", "netns", "add", ns)
		name := ns
		t.Cleanup(func() { deleteNetns(t, name) })
		run(t, "ip", "-n", ns, "link", "set", "lo", "up")
	}
	run(t, "ip", "link", "add", "b0", "netns", h.Boot, "type", "veth", "peer", "name", "n0", "netns", h.Node)
	for _, e := range [][3]string{{h.Boot, "b0", BootIP}, {h.Node, "n0", NodeIP}} {
		run(t, "ip", "-n", e[0], "addr", "add", e[2]+"/24", "dev", e[1])
		run(t, "ip", "-n", e[0], "link", "set", e[1], "up")
	}
	run(t, "ip", "-n", h.Node, "addr", "add", TargetIP+"/32", "dev", "lo")
}

func deleteNetns(t *testing.T, ns string) {
	if out, err := exec.Command("ip", "netns", "pids", ns).Output(); err == nil {
		for _, pid := range strings.Fields(string(out)) {
			// This test process is listed too: its locked threads are in ns.
			if pid == fmt.Sprint(os.Getpid()) {
				continue
			}
			_ = exec.Command("kill", "-KILL", pid).Run()
		}
	}
	if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil {
		t.Errorf("delete network namespace %s: %v: %s", ns, err, out)
	}
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// InNetns runs fn on an OS thread switched into the named namespace. The
// thread stays locked, so the runtime discards it afterwards and no other
// goroutine ever runs in the wrong namespace. Sockets fn creates stay in ns.
func InNetns(ns string, fn func() error) error {
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
