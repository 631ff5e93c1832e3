//go:build e2e

package e2e

import (
	"fmt"
	"net"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
)

// Settings this machine forces on the real node that a real bootstrap node
// would not use. They are all here, each with its reason, and nowhere else;
// e2e/README.md points to this block.
const (
	// The host runs cgroup v1 (hybrid) without systemd: kubelet v1.35 refuses
	// cgroup v1 unless failCgroupV1 is false, and with no systemd to manage
	// cgroups the kubelet and runc must both use the cgroupfs driver. The
	// sandbox has swap on, which the kubelet refuses by default.
	kubeletSandboxSettings = `failCgroupV1: false
cgroupDriver: cgroupfs
failSwapOn: false
`
	// Without it runc fails to start any container here with "can't get final
	// child's PID from pipe": containerd asks for an oom_score_adj below its
	// own, which the sandbox (no CAP_SYS_RESOURCE) does not allow. With it
	// containerd raises a container's score to its own instead.
	containerdSandboxSettings = `restrict_oom_score_adj = true`
	// The pause image: nothing can be pulled here, so the sandbox image is
	// Debian's static catatonit in a FROM scratch image (see nodeImages).
	pauseImage = "localhost/pause:e2e"
)

// nodePaths is where the real node keeps its state: every path under one
// directory, so the host's /etc, /var/lib, /var/log and /run are never
// written (the node's mount namespace overlays those; see nodeMounts).
type nodePaths struct {
	dir     string // /tmp/kbn<random>: see nodeDir
	root    string // the rendered root: what render wrote
	socket  string // containerd's socket
	cniConf string // containerd's CNI configuration directory
}

// nodeSockets are the Unix sockets the real node makes under its
// directory: the rendered server's, containerd's, and the kubelet's under
// its --root-dir.
var nodeSockets = []string{
	"root/etc/kubernetes/bootstrap-configs/konnectivity-server.socket",
	"containerd.sock",
	"containerd.sock.ttrpc",
	"kubelet/pod-resources/kubelet.sock",
	"kubelet/device-plugins/kubelet.sock",
}

// nodeDir is the real node's directory: short, under /tmp, whatever the
// checkout's depth, since the sockets above live under it; kept for
// inspection when the test fails.
func nodeDir(t *testing.T) string {
	return shortroot.Keep(t, "kbn", nodeSockets...)
}

func newNodePaths(dir string) nodePaths {
	return nodePaths{
		dir:     dir,
		root:    filepath.Join(dir, "root"),
		socket:  filepath.Join(dir, "containerd.sock"),
		cniConf: filepath.Join(dir, "cni", "net.d"),
	}
}

// containerdConfig is containerd's configuration: private root, state and
// socket, the CRI plugin with runc, the pause image and the CNI bridge.
func (p nodePaths) containerdConfig() string {
	return fmt.Sprintf(`version = 2
root = %[1]q
state = %[2]q
[grpc]
  address = %[3]q
[plugins."io.containerd.internal.v1.opt"]
  path = %[4]q
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = %[5]q
  %[6]s
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "runc"
        Root = %[7]q
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = %[8]q
`, filepath.Join(p.dir, "containerd", "root"), filepath.Join(p.dir, "containerd", "state"), p.socket,
		filepath.Join(p.dir, "containerd", "opt"), pauseImage, containerdSandboxSettings,
		filepath.Join(p.dir, "containerd", "runc"), p.cniConf)
}

// cniConfig is the pod network: Debian's bridge plugin with host-local
// addresses from the family's pod subnet, the bridge as the pods' gateway.
func (p nodePaths) cniConfig(fam family) string {
	_, subnet, _ := net.ParseCIDR(fmt.Sprintf("%s/%d", fam.nodePodIP, fam.prefix))
	dflt := "0.0.0.0/0"
	if subnet.IP.To4() == nil {
		dflt = "::/0"
	}
	return fmt.Sprintf(`{
  "cniVersion": "0.4.0",
  "name": "kbe2e",
  "plugins": [{
    "type": "bridge",
    "bridge": "kb0",
    "isGateway": true,
    "ipMasq": false,
    "ipam": {
      "type": "host-local",
      "ranges": [[{"subnet": %q, "gateway": %q}]],
      "routes": [{"dst": %q}],
      "dataDir": %q
    }
  }]
}
`, subnet.String(), fam.nodePodIP, dflt, filepath.Join(p.dir, "cni", "ipam"))
}

// kubeletConfig is the KubeletConfiguration: static pods from the installer's
// directory, the private containerd, a cgroup root of the run's own.
func (p nodePaths) kubeletConfig(nodeIP, cgroupRoot string) string {
	return `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
staticPodPath: /etc/kubernetes/manifests
fileCheckFrequency: 2s
syncFrequency: 5s
containerRuntimeEndpoint: unix://` + p.socket + `
address: ` + nodeIP + `
readOnlyPort: 0
authentication:
  anonymous: {enabled: true}
  webhook: {enabled: false}
authorization: {mode: AlwaysAllow}
cgroupRoot: ` + cgroupRoot + `
resolvConf: ""
serializeImagePulls: false
evictionHard: {"memory.available": "1Mi", "nodefs.available": "1%", "imagefs.available": "1%", "nodefs.inodesFree": "1%"}
` + kubeletSandboxSettings
}
