//lint:file-ignore SA1019 grpc's blocking dial options are the ones the kube-apiserver uses

package egressprobe

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	client "sigs.k8s.io/apiserver-network-proxy/konnectivity-client/pkg/client"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
)

// dialFunc dials addr as the kube-apiserver does for one egress selection.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// The dialer below is the kube-apiserver's, step for step and error for
// error (k8s.io/apiserver v1.35.4, pkg/server/egressselector,
// egress_selector.go), less its metrics and tracing: importing that package
// linked its metrics registry, OpenTelemetry and feature gates into every
// konnectivity-bundle process. The GRPC tunnel is konnectivity-client's, as
// in the kube-apiserver. TestDialerAgreesWithKubeAPIServer compares the two.

// host is where a dialer finds unix sockets and TLS files: the rendered
// root, confined, for the probe (kasView.host); the plain file system, as
// the kube-apiserver sees it, in the test that compares the two dialers.
type host struct {
	dialUnix func(ctx context.Context, socket string) (net.Conn, error)
	readFile func(path string) ([]byte, error)
}

// selectionDialer returns the dialer of one selection's connection.
func selectionDialer(c egressconfig.Connection, h host) (dialFunc, error) {
	switch c.ProxyProtocol {
	case egressconfig.ProtocolDirect:
		return http.DefaultTransport.(*http.Transport).DialContext, nil
	case egressconfig.ProtocolGRPC:
		if c.Transport.UDS == nil {
			return nil, fmt.Errorf("UDS transport must be specified for GRPC")
		}
		return proxied(grpcConnector(c.Transport.UDS.UDSName, h)), nil
	case egressconfig.ProtocolHTTPConnect:
		switch {
		case c.Transport.UDS != nil:
			return proxied(udsConnector(c.Transport.UDS.UDSName, h)), nil
		case c.Transport.TCP != nil:
			conn, err := tcpConnector(c.Transport.TCP, h)
			return proxied(conn), err
		}
		//lint:ignore ST1005 the kube-apiserver's own text
		return nil, fmt.Errorf("Either a TCP or UDS transport must be specified")
	}
	return nil, fmt.Errorf("unrecognized service connection protocol %q", c.ProxyProtocol)
}

// proxier opens a connection to addr through a connected proxy.
type proxier func(ctx context.Context, addr string) (net.Conn, error)

// connector connects to the proxy server; ctx bounds only that.
type connector func(ctx context.Context) (proxier, error)

func proxied(connect connector) dialFunc {
	return func(ctx context.Context, _, addr string) (net.Conn, error) {
		p, err := connect(ctx)
		if err != nil {
			return nil, err
		}
		return p(ctx, addr)
	}
}

func udsConnector(socket string, h host) connector {
	return func(ctx context.Context) (proxier, error) {
		conn, err := h.dialUnix(ctx, socket)
		if err != nil {
			return nil, err
		}
		return httpConnect(conn, socket), nil
	}
}

func tcpConnector(t *egressconfig.TCPTransport, h host) (connector, error) {
	cfg, err := clientTLS(t.TLSConfig, h)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(t.URL)
	if err != nil {
		return nil, fmt.Errorf("invalid proxy server url %q: %v", t.URL, err)
	}
	return func(ctx context.Context) (proxier, error) {
		d := tls.Dialer{Config: cfg}
		conn, err := d.DialContext(ctx, "tcp", u.Host)
		if err != nil {
			return nil, err
		}
		return httpConnect(conn, u.Host), nil
	}, nil
}

// httpConnect sends CONNECT on conn and returns conn once the proxy says 200.
func httpConnect(conn net.Conn, proxy string) proxier {
	return func(_ context.Context, addr string) (net.Conn, error) {
		fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", addr, "127.0.0.1")
		br := bufio.NewReader(io.LimitReader(conn, http.DefaultMaxHeaderBytes))
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("reading HTTP response from CONNECT to %s via proxy %s failed: %v", addr, proxy, err)
		}
		if res.StatusCode != http.StatusOK {
			conn.Close()
			return nil, fmt.Errorf("proxy error from %s while dialing %s, code %d: %v", proxy, addr, res.StatusCode, res.Status)
		}
		if br.Buffered() > 0 {
			conn.Close()
			return nil, fmt.Errorf("unexpected %d bytes of buffered data from CONNECT proxy %q", br.Buffered(), proxy)
		}
		return conn, nil
	}
}

// grpcConnector opens a single-use GRPC tunnel; like the kube-apiserver's,
// it ignores ctx and waits up to 30s for the socket (boundedDial and
// preflight keep the probe from waiting that long).
func grpcConnector(socket string, h host) connector {
	return func(context.Context) (proxier, error) {
		dial := grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			return h.dialUnix(ctx, socket)
		})
		tunnel, err := client.CreateSingleUseGrpcTunnel(context.TODO(), socket, dial,
			grpc.WithBlock(), grpc.WithReturnConnectionError(), grpc.WithTimeout(30*time.Second),
			grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, addr string) (net.Conn, error) {
			return tunnel.DialContext(ctx, "tcp", addr)
		}, nil
	}
}

func clientTLS(t *egressconfig.TLSConfig, h host) (*tls.Config, error) {
	cert, err := loadKeyPair(t.ClientCert, t.ClientKey, h)
	if err != nil {
		return nil, fmt.Errorf("failed to read key pair %s & %s, got %v", t.ClientCert, t.ClientKey, err)
	}
	var pool *x509.CertPool // nil: the host's roots, as in the kube-apiserver
	if t.CABundle != "" {
		pem, err := h.readFile(t.CABundle)
		if err != nil {
			return nil, fmt.Errorf("failed to read cert file %s, got %v", t.CABundle, err)
		}
		pool = x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("failed to append CA cert to the cert pool")
		}
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: pool}, nil
}

// loadKeyPair is tls.LoadX509KeyPair reading through h.
func loadKeyPair(certFile, keyFile string, h host) (tls.Certificate, error) {
	certPEM, err := h.readFile(certFile)
	if err != nil {
		return tls.Certificate{}, err
	}
	keyPEM, err := h.readFile(keyFile)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.X509KeyPair(certPEM, keyPEM)
}
