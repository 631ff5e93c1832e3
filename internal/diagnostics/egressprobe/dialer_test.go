package egressprobe

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apiserver/pkg/server/egressselector"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
)

// fakeProxy answers each CONNECT on a unix socket with reply, then echoes;
// an empty reply hangs up.
func fakeProxy(t *testing.T, reply string) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "proxy.sock")
	l, err := net.Listen("unix", sock)
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
			go func() {
				defer c.Close()
				buf := make([]byte, 4096)
				if _, err := c.Read(buf); err != nil {
					return
				}
				if reply != "" {
					io.WriteString(c, reply)
					io.Copy(c, c)
				}
			}()
		}
	}()
	return sock
}

func egressFile(t *testing.T, cluster string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "egress.yaml")
	data := "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n" + cluster
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func udsSelection(name, protocol, sock string) string {
	return fmt.Sprintf("- name: %s\n  connection:\n    proxyProtocol: %s\n    transport:\n      uds:\n        udsName: %s\n", name, protocol, sock)
}

// upstreamDialer is the kube-apiserver's own cluster dialer for the file.
func upstreamDialer(t *testing.T, path string) (dialFunc, error) {
	cfg, err := egressselector.ReadEgressSelectorConfiguration(path)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := egressselector.NewEgressSelector(cfg)
	if err != nil {
		return nil, err
	}
	d, err := sel.Lookup(egressselector.Cluster.AsNetworkContext())
	if d == nil {
		return nil, err
	}
	return dialFunc(d), err
}

func ourDialer(t *testing.T, path string) (dialFunc, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := egressconfig.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return lookupCluster(cfg, plainHost)
}

// dialOutcome dials addr and, on success, checks the connection carries bytes.
func dialOutcome(d dialFunc, addr string) string {
	conn, err := d(context.Background(), "tcp", addr)
	if err != nil {
		return "error: " + err.Error()
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "ping"); err != nil {
		return "write: " + err.Error()
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(conn, buf); err != nil {
		return "read: " + err.Error()
	}
	return "connected, echoed " + string(buf)
}

// TestDialerAgreesWithKubeAPIServer: for each answer of an HTTP CONNECT
// proxy, and for files whose dialers cannot be built, the probe's dialer
// and the kube-apiserver's (egressselector, linked by this test only) give
// the same outcome and the same error text. GRPC is covered against the
// real proxy-server in TestProbeAgainstRealServerAndAgent.
func TestDialerAgreesWithKubeAPIServer(t *testing.T) {
	replies := []struct{ name, reply, want string }{
		{"connected", "HTTP/1.1 200 Connection established\r\n\r\n", "connected"},
		{"no agent", "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 52\r\n\r\ncurrently no tunnels available: No agent available\n", "code 500"},
		{"refused", "HTTP/1.1 502 Bad Gateway\r\n\r\n", "code 502"},
		{"hung up", "", "EOF"},
		{"garbage", "SSH-2.0-OpenSSH\r\n", "malformed HTTP"},
		{"early bytes", "HTTP/1.1 200 OK\r\n\r\nhello", "buffered data"},
	}
	for _, tc := range replies {
		t.Run(tc.name, func(t *testing.T) {
			path := egressFile(t, udsSelection("cluster", "HTTPConnect", fakeProxy(t, tc.reply)))
			compareDialers(t, path, "198.51.100.2:443", tc.want)
		})
	}
	dir := t.TempDir()
	files := []struct{ name, selections, want string }{
		{"socket missing", udsSelection("cluster", "HTTPConnect", filepath.Join(dir, "none.sock")), "no such file"},
		{"direct", "- name: cluster\n  connection:\n    proxyProtocol: Direct\n", "connection refused"},
		{"no cluster selection", udsSelection("controlplane", "HTTPConnect", filepath.Join(dir, "none.sock")), "no dialer"},
		{"tls files missing", "- name: cluster\n  connection:\n    proxyProtocol: HTTPConnect\n    transport:\n      tcp:\n        url: https://127.0.0.1:8090\n        tlsConfig:\n          clientCert: " + dir + "/c.crt\n          clientKey: " + dir + "/c.key\n", "failed to read key pair"},
		{"other selection broken", udsSelection("cluster", "HTTPConnect", filepath.Join(dir, "none.sock")) + "- name: etcd\n  connection:\n    proxyProtocol: GRPC\n    transport:\n      tcp:\n        url: https://127.0.0.1:8090\n", "UDS transport must be specified"},
	}
	for _, tc := range files {
		t.Run(tc.name, func(t *testing.T) {
			compareDialers(t, egressFile(t, tc.selections), closedPort(t), tc.want)
		})
	}
}

// closedPort is a local address nothing listens on: a direct dial is
// refused at once, and a proxy sees it only as text.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	return l.Addr().String()
}

func compareDialers(t *testing.T, path, addr, want string) {
	t.Helper()
	outcome := func(d dialFunc, err error) string {
		switch {
		case err != nil:
			return "build: " + err.Error()
		case d == nil:
			return "no dialer"
		}
		return dialOutcome(d, addr)
	}
	kas, ours := outcome(upstreamDialer(t, path)), outcome(ourDialer(t, path))
	if kas != ours {
		t.Errorf("outcome differs:\n kube-apiserver %s\n ours           %s", kas, ours)
	}
	if !strings.Contains(ours, want) {
		t.Errorf("outcome %q, want it to contain %q", ours, want)
	}
}

// plainHost reaches sockets and files by their paths, as the kube-apiserver does.
var plainHost = host{
	dialUnix: func(ctx context.Context, socket string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	},
	readFile: os.ReadFile,
}
