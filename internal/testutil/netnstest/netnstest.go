// Package netnstest gives tests their own hosts: network namespaces joined
// by veth pairs, removed when the test ends, and removed on the next run
// when a killed test process could not clean up.
package netnstest

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

var counter atomic.Int64

// Add creates one namespace per suffix, named <prefix><pid>-<n>-<suffix>,
// with loopback up, and deletes them when the test ends. The pid in the
// name lets SweepStale tell a dead run's namespaces from a live one's.
func Add(t testing.TB, prefix string, suffixes ...string) []string {
	t.Helper()
	tooltest.Integration(t, "creates network namespaces")
	base := fmt.Sprintf("%s%d-%d", prefix, os.Getpid(), counter.Add(1))
	names := make([]string, len(suffixes))
	for i, s := range suffixes {
		ns := base + "-" + s
		Run(t, "ip", "netns", "add", ns)
		t.Cleanup(func() { remove(t, ns) })
		Run(t, "ip", "-n", ns, "link", "set", "lo", "up")
		names[i] = ns
	}
	return names
}

// Link joins two namespaces with a veth pair and addresses both ends.
func Link(t testing.TB, nsA, ifA, ipA, nsB, ifB, ipB string, prefix int) {
	t.Helper()
	Run(t, "ip", "link", "add", ifA, "netns", nsA, "type", "veth", "peer", "name", ifB, "netns", nsB)
	for _, e := range [][3]string{{nsA, ifA, ipA}, {nsB, ifB, ipB}} {
		args := []string{"-n", e[0], "addr", "add", fmt.Sprintf("%s/%d", e[2], prefix), "dev", e[1]}
		if strings.Contains(e[2], ":") {
			args = append(args, "nodad") // usable at once, no duplicate address detection delay
		}
		Run(t, "ip", args...)
		Run(t, "ip", "-n", e[0], "link", "set", e[1], "up")
	}
}

// remove kills whatever still runs in the namespace, then deletes it.
func remove(t testing.TB, ns string) {
	if out, err := exec.Command("ip", "netns", "pids", ns).Output(); err == nil {
		for _, field := range strings.Fields(string(out)) {
			// A retired In thread of this very process may still be listed.
			if pid, err := strconv.Atoi(field); err == nil && pid != os.Getpid() {
				_ = unix.Kill(pid, unix.SIGKILL)
			}
		}
	}
	if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil {
		t.Errorf("delete network namespace %s: %v: %s", ns, err, out)
	}
}

// SweepStale deletes namespaces named <prefix><pid>-... whose test process
// is gone: an earlier run was killed before its cleanup ran.
func SweepStale(prefix string) {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], prefix) {
			continue
		}
		var pid int
		if _, err := fmt.Sscanf(strings.TrimPrefix(f[0], prefix), "%d-", &pid); err != nil || pid == os.Getpid() {
			continue
		}
		if unix.Kill(pid, 0) == unix.ESRCH {
			fmt.Fprintf(os.Stderr, "netnstest: deleting network namespace %s left by dead run %d\n", f[0], pid)
			_ = exec.Command("ip", "netns", "del", f[0]).Run()
		}
	}
}

// Run runs a setup command and fails the test with its output if it fails.
func Run(t testing.TB, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// In runs fn on an OS thread switched into the named namespace. The thread
// is never unlocked, so the runtime discards it afterwards and no other
// goroutine ever runs in the wrong namespace. Sockets fn creates stay in ns.
func In(ns string, fn func() error) error {
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

// DropTCP makes the namespace drop every incoming TCP packet to port with
// nftables, as a cloud firewall without the rule does: the peer's SYN gets
// no answer at all, not a refusal. Without nft it is tooltest.Missing.
func DropTCP(t testing.TB, ns string, port int) {
	t.Helper()
	if _, err := exec.LookPath("nft"); err != nil {
		tooltest.Missing(t, "needs nft (apt-get install nftables)")
	}
	rules := fmt.Sprintf("table inet kbtest {\n chain input {\n  type filter hook input priority 0; policy accept;\n  tcp dport %d drop\n }\n}\n", port)
	cmd := exec.Command("ip", "netns", "exec", ns, "nft", "-f", "-")
	cmd.Stdin = strings.NewReader(rules)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nft in %s: %v\n%s", ns, err, out)
	}
}
