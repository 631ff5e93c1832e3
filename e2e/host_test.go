//go:build e2e

package e2e

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	bundlefn "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
)

// kasConfigMount is how the OpenShift bootstrap kube-apiserver pod mounts the
// bootstrap-configs host directory (README.md, "What the bundle contains"). It belongs to the
// KAS pod, not to the bundle, so it is the independent side of the check that
// the egress file and socket reach the same host files as the server's paths.
var kasConfigMount = hostMount{container: "/etc/kubernetes/config", host: "/etc/kubernetes/bootstrap-configs"}

// testImage is the image reference render is given; the e2e replaces the
// image's binaries with the built ones.
const testImage = "registry.e2e.invalid/apiserver-network-proxy:e2e"

// bootstrapHost is a rendered bundle mapped onto this machine.
type bootstrapHost struct {
	owner      *testing.T // the test whose end stops server and agent
	tp         *topology
	b          *renderedBundle
	dir        string
	server     *hostCommand
	agent      *hostCommand
	socket     string // host path of the server's UDS
	kasEgress  string // the egress file with KAS container paths mapped
	serverProc *proctest.Proc
	agentProc  *proctest.Proc
}

// shortRoot is a temporary root with a short path whatever the checkout's
// depth: the UDS lives under it and socket paths are limited to 108 bytes.
func shortRoot(t *testing.T) string {
	t.Helper()
	return shortroot.Dir(t, "kbe2e", "etc/kubernetes/bootstrap-configs/konnectivity-server.socket")
}

// mapBundle turns the rendered server pod, DaemonSet and KAS override into
// host command lines and a mapped egress file.
func mapBundle(t *testing.T, tp *topology, root string) *bootstrapHost {
	t.Helper()
	h := &bootstrapHost{owner: t, tp: tp, b: loadBundle(t, root), dir: testDir(t)}
	image := map[string]string{
		bundlefn.ServerCommand: tool(t, "proxy-server"),
		bundlefn.AgentCommand:  tool(t, "proxy-agent"),
	}
	var err error
	if h.server, err = mapContainer(h.b.serverPod.Spec, "konnectivity-server", root, nil, image); err != nil {
		t.Fatalf("map server pod: %v", err)
	}
	secrets := h.b.secretDirs(t, h.dir)
	if h.agent, err = mapContainer(h.b.daemonSet.Spec.Template.Spec, "konnectivity-agent", root, secrets, image); err != nil {
		t.Fatalf("map agent DaemonSet: %v", err)
	}
	h.socket = flagValue(t, h.server.argv, "--uds-name")
	h.kasEgress = h.mapEgress(t, root)
	return h
}

// mapEgress follows the override to the egress file through the KAS mount,
// checks that its UDS is the very file the server listens on, and writes a
// copy whose paths the KAS process on this host can open.
func (h *bootstrapHost) mapEgress(t *testing.T, root string) string {
	t.Helper()
	kas := &hostCommand{mounts: []hostMount{{container: kasConfigMount.container, host: filepath.Join(root, kasConfigMount.host)}}}
	egressPath, err := kas.path(h.b.kasEgressFile(t))
	if err != nil {
		t.Fatalf("override's egress file is not on the KAS config mount: %v", err)
	}
	raw, err := os.ReadFile(egressPath)
	if err != nil {
		t.Fatalf("override names %s, which maps to %s: %v", h.b.kasEgressFile(t), egressPath, err)
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatalf("egress file: %v", err)
	}
	sels, _ := cfg["egressSelections"].([]any)
	found := false
	for _, s := range sels {
		sel := s.(map[string]any)
		uds := dig(sel, "connection", "transport", "uds")
		if uds == nil {
			continue
		}
		mapped, err := kas.path(fmt.Sprint(uds["udsName"]))
		if err != nil {
			t.Fatalf("selection %v: %v", sel["name"], err)
		}
		if mapped != h.socket {
			t.Fatalf("the KAS would dial %s (host %s) but the server listens on %s", uds["udsName"], mapped, h.socket)
		}
		uds["udsName"] = mapped
		found = sel["name"] == "cluster"
	}
	if !found {
		t.Fatalf("egress file has no cluster selection through the UDS:\n%s", raw)
	}
	out, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, h.dir, map[string][]byte{"egress-mapped.yaml": out})
	return filepath.Join(h.dir, "egress-mapped.yaml")
}

func dig(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil
		}
		m = next
	}
	return m
}

// flagValue returns the value of --name=value in argv.
func flagValue(t *testing.T, argv []string, name string) string {
	t.Helper()
	v := flagValueOK(argv, name)
	if v == "" {
		t.Fatalf("%s not in %q", name, argv)
	}
	return v
}

// flagValueOK returns the value of --name=value in argv, or "".
func flagValueOK(argv []string, name string) string {
	for _, a := range argv {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// startServer starts proxy-server in the bootstrap namespace and waits for its socket.
func (h *bootstrapHost) startServer(t *testing.T) {
	t.Helper()
	h.serverProc = proctest.Launch(t, proctest.Spec{NS: h.tp.boot, Name: "proxy-server", LogDir: h.dir, Argv: h.server.argv})
	h.serverProc.StopWith(h.owner)
	if _, err := eventually(startWait, 10*time.Millisecond, func() error {
		if !h.serverProc.Running() {
			return fmt.Errorf("proxy-server exited: %v", h.serverProc.Err())
		}
		_, err := os.Stat(h.socket)
		return err
	}); err != nil {
		t.Fatalf("proxy-server socket: %v", err)
	}
}

// startAgent starts proxy-agent in the node namespace with argv (normally the
// mapped DaemonSet container).
func (h *bootstrapHost) startAgent(t *testing.T, argv []string) {
	t.Helper()
	h.agentProc = proctest.Launch(t, proctest.Spec{NS: h.tp.node, Name: "proxy-agent", LogDir: h.dir, Argv: argv})
	h.agentProc.StopWith(h.owner)
}

// serverPod is the rendered static pod.
func (h *bootstrapHost) serverPod() *corev1.Pod { return h.b.serverPod }

// dialFrom reports whether a TCP connection from ns to addr succeeds.
func dialFrom(ns, addr string) error {
	return inNetns(ns, func() error {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err == nil {
			c.Close()
		}
		return err
	})
}
