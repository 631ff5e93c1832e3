//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
)

// realNode is a kubelet and containerd running in the node's network
// namespace and in a mount namespace of their own, where the rendered root's
// etc/kubernetes and opt/openshift are mounted at /etc/kubernetes and
// /opt/openshift, where the kubelet and the installer expect them.
type realNode struct {
	name, ns, ip string
	paths        nodePaths
	holder       *proctest.Proc // keeps the mount namespace; containerd and the kubelet join it
	cgroupRoot   string
	containerd   *proctest.Proc
	kubelet      *proctest.Proc
}

// nodeMounts is the mount namespace's set-up: /etc, /opt, /var and /run are
// overlays whose writes land under dir (so the host's are never written, the
// kubelet's hard-coded /var/log/containers included), then the rendered
// directories are bound at their installer paths.
func nodeMounts(dir, root string) string {
	var s []string
	for _, top := range []string{"/etc", "/opt", "/var", "/run"} {
		up, work := filepath.Join(dir, "overlay", "up"+top), filepath.Join(dir, "overlay", "work"+top)
		s = append(s, fmt.Sprintf("mkdir -p %s %s && mount -t overlay overlay -o lowerdir=%s,upperdir=%s,workdir=%s %s", up, work, top, up, work, top))
	}
	for _, d := range []string{"/etc/kubernetes", "/opt/openshift"} {
		s = append(s, fmt.Sprintf("mkdir -p %s %s && mount --bind %s %s", d, filepath.Join(root, d), filepath.Join(root, d), d))
	}
	return strings.Join(s, "\n")
}

// startNode starts the mount namespace, containerd (with the images
// imported) and the kubelet registered as name at ip, which reaches the
// apiserver at kasURL.
func startNode(t *testing.T, name, ns, ip, kasURL, token string, p nodePaths, images []string) *realNode {
	t.Helper()
	n := &realNode{name: name, ns: ns, ip: ip, paths: p, cgroupRoot: "/kbe2e-" + filepath.Base(p.dir)}
	writeFiles(t, p.dir, map[string][]byte{
		"containerd.toml": []byte(p.containerdConfig()),
		"kubelet.yaml":    []byte(p.kubeletConfig(ip, n.cgroupRoot)),
		"kubeconfig":      []byte(kubeconfigFor(kasURL, token)),
	})
	fam := ipv4
	if strings.Contains(ip, ":") {
		fam = ipv6
	}
	writeFiles(t, p.cniConf, map[string][]byte{"10-kbe2e.conflist": []byte(p.cniConfig(fam))})
	ready := filepath.Join(p.dir, "mounts-ready")
	n.holder = proctest.Start(t, proctest.Spec{Name: "node-mounts", LogDir: p.dir, Argv: []string{"unshare", "--mount", "--propagation", "private",
		"sh", "-ec", nodeMounts(p.dir, p.root) + "\ntouch " + ready + "\nexec sleep infinity"}})
	if _, err := eventually(startWait, 20*time.Millisecond, func() error {
		if !n.holder.Running() {
			return fmt.Errorf("exited: %v", n.holder.Err())
		}
		_, err := os.Stat(ready)
		return err
	}); err != nil {
		t.Fatalf("node mount namespace: %v\n%s", err, n.holder.Tail(20))
	}
	n.makeCgroupRoot(t)
	t.Cleanup(n.sweep)
	n.containerd = n.start(t, "containerd", "containerd", "--config", filepath.Join(p.dir, "containerd.toml"))
	if _, err := eventually(startWait, 100*time.Millisecond, func() error {
		if !n.containerd.Running() {
			return fmt.Errorf("containerd exited: %v", n.containerd.Err())
		}
		return exec.Command("ctr", "--address", p.socket, "version").Run()
	}); err != nil {
		t.Fatalf("containerd: %v\n%s", err, n.containerd.Tail(20))
	}
	for _, archive := range images {
		if out, err := exec.Command("ctr", "--address", p.socket, "-n", "k8s.io", "images", "import", archive).CombinedOutput(); err != nil {
			t.Fatalf("ctr images import %s: %v\n%s", archive, err, out)
		}
	}
	n.kubelet = n.start(t, "kubelet", tool(t, "kubelet"), "--config="+filepath.Join(p.dir, "kubelet.yaml"),
		"--kubeconfig="+filepath.Join(p.dir, "kubeconfig"), "--hostname-override="+name, "--node-ip="+ip,
		"--root-dir="+filepath.Join(p.dir, "kubelet"), "--v=2")
	return n
}

// start runs argv in the node's network and mount namespaces.
func (n *realNode) start(t *testing.T, name string, argv ...string) *proctest.Proc {
	t.Helper()
	full := append([]string{"nsenter", fmt.Sprintf("--mount=/proc/%d/ns/mnt", n.holder.Pid()),
		"--net=/run/netns/" + n.ns, "--"}, argv...)
	return proctest.Start(t, proctest.Spec{Name: name, LogDir: n.paths.dir, Argv: full})
}

// cgroupHierarchies are the mounted cgroup v1 hierarchies (or the single v2 one).
func cgroupHierarchies() []string {
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		return []string{"/sys/fs/cgroup"}
	}
	dirs, _ := filepath.Glob("/sys/fs/cgroup/*")
	var out []string
	for _, d := range dirs {
		if fi, err := os.Stat(filepath.Join(d, "cgroup.procs")); err == nil && !fi.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// makeCgroupRoot creates the run's own cgroup root in every hierarchy (the
// kubelet requires it to exist), so everything the node starts is found and
// removed by sweep, and nothing is left in the host's cgroups.
func (n *realNode) makeCgroupRoot(t *testing.T) {
	t.Helper()
	for _, h := range cgroupHierarchies() {
		d := filepath.Join(h, n.cgroupRoot)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatalf("cgroup root: %v", err)
		}
		if filepath.Base(h) == "cpuset" { // a cpuset without cpus or mems takes no task
			for _, f := range []string{"cpuset.cpus", "cpuset.mems"} {
				if v, err := os.ReadFile(filepath.Join(h, f)); err == nil {
					_ = os.WriteFile(filepath.Join(d, f), v, 0o644)
				}
			}
		}
	}
}

// sweep runs after containerd and the kubelet stopped: containerd's shims
// (their own process groups) are killed by their mount namespace, the
// containers by their cgroups, then the cgroups are removed.
func (n *realNode) sweep() {
	mnt, _ := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", n.holder.Pid()))
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		pid, _ := strconv.Atoi(filepath.Base(p))
		if pid == n.holder.Pid() {
			continue
		}
		if m, err := os.Readlink(p + "/ns/mnt"); err == nil && mnt != "" && m == mnt {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	for attempt := 0; attempt < 50; attempt++ {
		left := 0
		for _, h := range cgroupHierarchies() {
			left += removeCgroupTree(filepath.Join(h, n.cgroupRoot))
		}
		if left == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// removeCgroupTree kills every task under dir and removes the cgroups
// depth first; it returns how many could not be removed yet.
func removeCgroupTree(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0 // gone (or never made)
	}
	left := 0
	for _, e := range entries {
		if e.IsDir() {
			left += removeCgroupTree(filepath.Join(dir, e.Name()))
		}
	}
	if procs, err := os.ReadFile(filepath.Join(dir, "cgroup.procs")); err == nil {
		for _, f := range strings.Fields(string(procs)) {
			if pid, err := strconv.Atoi(f); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	if err := os.Remove(dir); err != nil && !os.IsNotExist(err) {
		left++
	}
	return left
}
