// Package tunneltest runs a rendered bootstrap host for tests: render writes
// the real bundle (real certificates) under a temporary root, and the real
// proxy-server and proxy-agent run with the rendered pods' own arguments in
// two network namespaces, bootstrap and node, joined by a veth link.
package tunneltest

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// Addresses: documentation prefixes that exist only inside the namespaces.
const (
	BootIP   = "192.0.2.10"   // the bootstrap host, what agents dial
	NodeIP   = "192.0.2.11"   // the cluster node running the agent
	TargetIP = "198.51.100.2" // a "pod" address, on the node only
	// OutsiderIP is outside the node network (192.0.2.0/24), linked to the
	// bootstrap host as 203.0.113.1 (see Options.Outsider).
	OutsiderIP = "203.0.113.2"
	// The same roles in IPv6 (Options.IPv6): node network 2001:db8::/64.
	BootIP6     = "2001:db8::10"
	NodeIP6     = "2001:db8::11"
	TargetIP6   = "2001:db8:ff::2"
	OutsiderIP6 = "2001:db8:1::2"
	image       = "registry.test.invalid/apiserver-network-proxy:test"
)

// defaultSocket is where the base puts the server's socket under a root.
var defaultSocket = filepath.Join(hostlayout.InstallerConfigDir, v1alpha1.DefaultSocketName)

// Host is one rendered bootstrap host and one node.
type Host struct {
	Root       string
	Boot, Node string // network namespace names
	Outsider   string // a third namespace, outside the node network ("" unless Options.Outsider)
	Addr       Addrs  // the addresses of this host's family
	Rendered   *renderedroot.Root
	Server     []string              // argv mapped from the static pod
	Agent      []string              // argv mapped from the DaemonSet
	ServerEnv  []string              // the static pod container's env, NAME=value
	Socket     string                // host path of the server's socket
	Version    *proxyversion.Version // the proxy version rendered and run
	logDir     string
	server     *proctest.Proc
	agent      *proctest.Proc
}

// Addrs are the addresses of one family: the bootstrap host (what agents
// dial), the node, the "pod" target on the node, the outsider, and the
// node network as a CIDR.
type Addrs struct {
	Boot, Node, Target, Outsider, NodeNet string
	bits                                  int
	outsiderBoot                          string // the bootstrap end of the outsider link
}

var (
	ipv4Addrs = Addrs{BootIP, NodeIP, TargetIP, OutsiderIP, "192.0.2.0/24", 24, "203.0.113.1"}
	ipv6Addrs = Addrs{BootIP6, NodeIP6, TargetIP6, OutsiderIP6, "2001:db8::/64", 64, "2001:db8:1::1"}
)

// Options configure NewWith.
type Options struct {
	Overlay  string
	IPv6     bool // render with BootIP6 and address the links in IPv6
	Outsider bool // add a namespace linked to the bootstrap one from outside the node network
	// Version is the proxy version to render for and run; nil is the
	// newest. An overlay that names its own (upi) keeps it, and the host
	// runs the binaries of the version the rendered bundle targets.
	Version *proxyversion.Version
	// Mode, when set, is patched into the config as spec.mode, overriding
	// the version's default mode (proxyversion.Version.DefaultMode).
	Mode string
}

// New renders overlay under a fresh root and creates the namespaces. It
// is an integration test, and without root or the real binaries it is
// tooltest.Missing (skips, or fails when KB_REQUIRE_TOOLS=1).
func New(t *testing.T, overlay string) *Host {
	t.Helper()
	return NewWith(t, Options{Overlay: overlay})
}

// NewWith is New with a family and an optional outsider.
func NewWith(t *testing.T, o Options) *Host {
	t.Helper()
	requireNetns(t)
	h := &Host{logDir: t.TempDir(), Addr: ipv4Addrs}
	if o.IPv6 {
		h.Addr = ipv6Addrs
	}
	h.Root = newRoot(t)
	var err error
	if o.Version == nil {
		o.Version = proxyversion.Newest
	}
	if _, err := render.Run(context.Background(), render.Options{Overlay: modeOverlay(t, o), Root: h.Root, BootstrapIP: netip.MustParseAddr(h.Addr.Boot),
		Image: image, Pin: kustbuild.PinKeep, ProxyVersion: o.Version}); err != nil {
		t.Fatalf("render %s: %v", o.Overlay, err)
	}
	if h.Rendered, err = renderedroot.Load(h.Root); err != nil {
		t.Fatal(err)
	}
	if h.Version = h.Rendered.Bundle.Target.Version; h.Version == nil {
		t.Fatalf("rendered root %s names no proxy version: %s", h.Root, h.Rendered.Bundle.Target.Problem)
	}
	h.mapCommands(t)
	if err := shortroot.Fits("/", h.Socket); err != nil { // an overlay may move the socket
		t.Fatal(err)
	}
	h.namespaces(t, o.Outsider)
	return h
}

// modeOverlay is o.Overlay, or with o.Mode set an overlay that takes the
// same config (overlays/<name>/config where the overlay patches one, else
// the base's) and patches spec.mode, as the e2e suite's grpc cases do.
func modeOverlay(t *testing.T, o Options) string {
	t.Helper()
	if o.Mode == "" {
		return o.Overlay
	}
	config := filepath.Join("overlays", o.Overlay, "config")
	if _, err := os.Stat(filepath.Join(tooltest.RepoRoot(), config)); err != nil {
		config = ""
	}
	return tooltest.WriteOverlay(t, tooltest.Overlay{Config: config, Spec: "mode: " + o.Mode})
}

// newRoot is the host root render writes to: short whatever the
// checkout's depth, since the server's socket lives under it.
func newRoot(t *testing.T) string {
	t.Helper()
	return shortroot.Dir(t, "kbs", defaultSocket)
}

func requireNetns(t *testing.T) {
	t.Helper()
	tooltest.Integration(t, "runs proxy-server and proxy-agent in network namespaces")
	if os.Geteuid() != 0 {
		tooltest.Missing(t, "needs root to create network namespaces")
	} else if _, err := exec.LookPath("ip"); err != nil {
		tooltest.Missing(t, "needs the ip command (apt-get install iproute2)")
	}
}

// mapCommands turns the rendered containers into host command lines: the
// image's binary becomes the built one, and every path argument is moved
// from the container's view to the host file behind its mount.
func (h *Host) mapCommands(t *testing.T) {
	t.Helper()
	b := h.Rendered.Bundle
	if b.Server == nil || b.Agent == nil {
		t.Fatalf("rendered root %s has no server pod or agent DaemonSet", h.Root)
	}
	bins := map[string]string{"proxy-server": tooltest.ProxyBin(t, h.Version, "proxy-server"), "proxy-agent": tooltest.ProxyBin(t, h.Version, "proxy-agent")}
	h.Server = mapArgs(t, b.Server, bins, func(p string) (string, bool) { return h.Rendered.ServerHostPath(p) })
	secretDir := h.secretFiles(t)
	h.Agent = mapArgs(t, b.Agent, bins, func(p string) (string, bool) {
		rel, ok := strings.CutPrefix(p, "/etc/konnectivity/")
		return filepath.Join(secretDir, rel), ok
	})
	for _, e := range b.Server.Container().Env {
		h.ServerEnv = append(h.ServerEnv, e.Name+"="+e.Value)
	}
	h.Socket, _ = h.Rendered.ServerHostPath(b.Server.Flags.Value("uds-name"))
}

func mapArgs(t *testing.T, w *bundlemodel.Workload, bins map[string]string, path func(string) (string, bool)) []string {
	t.Helper()
	c := w.Container()
	args := append(append([]string{}, c.Command...), c.Args...)
	bin, ok := bins[filepath.Base(args[0])] // the model found w because args[0] runs an ANP binary
	if !ok {
		t.Fatalf("%s runs %s, not a binary this harness has", w.Object.ID(), args[0])
	}
	argv := []string{bin}
	for _, a := range args[1:] {
		if name, val, ok := strings.Cut(a, "="); ok && strings.HasPrefix(val, "/") {
			host, ok := path(val)
			if !ok {
				t.Fatalf("%s: %s is not on a mount this harness can map", w.Object.ID(), a)
			}
			a = name + "=" + host
		}
		argv = append(argv, a)
	}
	return argv
}

// secretFiles writes the rendered agent Secret's data as the kubelet would
// project it, and returns the directory.
func (h *Host) secretFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	secret := h.Rendered.Bundle.SecretData
	if secret == nil {
		t.Fatalf("rendered root %s has no agent Secret", h.Root)
	}
	for k, raw := range secret.Data {
		if err := os.WriteFile(filepath.Join(dir, k), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// StartServer starts proxy-server in the bootstrap namespace and waits for
// its socket. Extra flags go after the rendered ones, so they win.
func (h *Host) StartServer(t *testing.T, extra ...string) {
	t.Helper()
	h.server = proctest.Start(t, proctest.Spec{NS: h.Boot, Name: "proxy-server", LogDir: h.logDir,
		Argv: append(append([]string{}, h.Server...), extra...), Env: h.ServerEnv})
	// The server opens its health port after the socket: a status run
	// between the two would see the server down.
	health, err := h.Rendered.Bundle.Server.Port("health-port")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 20*time.Second, func() error {
		if !h.server.Running() {
			return fmt.Errorf("proxy-server exited:\n%s", h.server.Tail(40))
		}
		if _, err := os.Stat(h.Socket); err != nil {
			return err
		}
		c, err := h.DialBoot(context.Background(), "tcp", net.JoinHostPort("127.0.0.1", fmt.Sprint(health)))
		if err != nil {
			return err
		}
		return c.Close()
	})
}

// StartAgent starts proxy-agent in the node namespace. Extra flags go
// after the rendered ones, so they win (pflag keeps a flag's last value).
func (h *Host) StartAgent(t *testing.T, extra ...string) *proctest.Proc {
	t.Helper()
	h.agent = proctest.Start(t, proctest.Spec{NS: h.Node, Name: "proxy-agent", LogDir: h.logDir,
		Argv: append(append([]string{}, h.Agent...), extra...)})
	return h.agent
}

// StopAgent stops the agent StartAgent started, so a test can start another.
func (h *Host) StopAgent() { h.agent.Stop() }

// ServerLog is the file the server's output goes to.
func (h *Host) ServerLog() string { return filepath.Join(h.logDir, "proxy-server.log") }

// DialBoot dials from inside the bootstrap namespace, where the server's
// health and admin ports are.
func (h *Host) DialBoot(ctx context.Context, network, addr string) (net.Conn, error) {
	var c net.Conn
	err := InNetns(h.Boot, func() error {
		var err error
		c, err = (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, network, addr)
		return err
	})
	return c, err
}

// ListenNode opens a TCP listener on the target address:port in the node namespace.
func (h *Host) ListenNode(port int) (net.Listener, error) {
	return Listen(h.Node, net.JoinHostPort(h.Addr.Target, fmt.Sprint(port)))
}

// Listen opens a TCP listener on addr inside namespace ns.
func Listen(ns, addr string) (net.Listener, error) {
	var l net.Listener
	err := InNetns(ns, func() error {
		var err error
		l, err = net.Listen("tcp", addr)
		return err
	})
	return l, err
}

// ServeAccepts listens on addr inside namespace ns and accepts and closes
// every connection until the test ends: a port that is open and nothing more,
// for tests that only ask whether a connection gets through.
func ServeAccepts(t *testing.T, ns, addr string) { ServeGreeting(t, ns, addr, "") }

// ServeGreeting is ServeAccepts for a server that speaks first: it writes
// greeting on each connection before it closes it. Through a proxy that
// accepts a CONNECT before its agent dials (v0.28), a target's first bytes
// are what proves the dial (internal/diagnostics/egressprobe).
func ServeGreeting(t *testing.T, ns, addr, greeting string) {
	t.Helper()
	l, err := Listen(ns, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte(greeting))
			c.Close()
		}
	}()
}

func waitFor(t *testing.T, timeout time.Duration, f func() error) {
	t.Helper()
	if err := Eventually(timeout, f); err != nil {
		t.Fatal(err)
	}
}

// Eventually retries f every 50ms until it succeeds or timeout passes.
func Eventually(timeout time.Duration, f func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := f()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("after %s: %w", timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
