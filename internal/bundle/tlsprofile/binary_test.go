package tlsprofile

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// hello is one handshake with the agent listener: a TLS version and, for
// TLS 1.2, the one suite offered, and whether the listener must take it.
type hello struct {
	version uint16
	suite   uint16 // 0 for TLS 1.3, whose suites Go picks
	ok      bool
}

// TestListenerOnTheRealServer starts each version's real proxy-server with
// the flags For renders (--tls-min-version, --cipher-suites) and makes
// handshakes with an agent's certificate against its agent listener: the
// suites the profile names are taken, one Go serves by default but the
// profile leaves out is refused, and the minimum is what Listener.Accepts
// says (TLS 1.2 is refused under Modern where the server has
// --tls-min-version, taken where it has none). The control, the server
// without either flag, takes the suite the Custom profile leaves out.
func TestListenerOnTheRealServer(t *testing.T) {
	pki := newPKI(t)
	aes128, aes256, cbc := tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA
	for _, v := range proxyversion.Versions {
		for _, tc := range []struct {
			name    string
			profile *configv1.TLSSecurityProfile
			hellos  func(l Listener) []hello
		}{
			{"control: no flags, Go's defaults", nil, func(Listener) []hello {
				// Which CBC suites a bare server takes depends on its grpc-go
				// (v1.67 and later drop them when no suites are given), so the
				// control holds what Custom refuses: AES-128-GCM.
				return []hello{{tls.VersionTLS12, aes128, true}, {tls.VersionTLS12, aes256, true}, {tls.VersionTLS13, 0, true}}
			}},
			{"Intermediate", nil, func(Listener) []hello {
				return []hello{{tls.VersionTLS12, aes128, true}, {tls.VersionTLS12, aes256, true}, {tls.VersionTLS12, cbc, false}, {tls.VersionTLS13, 0, true}}
			}},
			{"Modern", &configv1.TLSSecurityProfile{Type: configv1.TLSProfileModernType}, func(l Listener) []hello {
				tls12 := l.Accepts == configv1.VersionTLS12
				return []hello{{tls.VersionTLS12, aes128, tls12}, {tls.VersionTLS12, cbc, false}, {tls.VersionTLS13, 0, true}}
			}},
			{"Custom", custom(configv1.VersionTLS12, "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384"), func(Listener) []hello {
				return []hello{{tls.VersionTLS12, aes256, true}, {tls.VersionTLS12, aes128, false}, {tls.VersionTLS13, 0, true}}
			}},
		} {
			t.Run(v.Name+"/"+tc.name, func(t *testing.T) {
				s, err := Resolve(tc.profile)
				if err != nil {
					t.Fatal(err)
				}
				l := For(s, v)
				if strings.HasPrefix(tc.name, "control") {
					l = Listener{} // what the server did before the profile was followed
				}
				addr := startServer(t, v, pki, l)
				for _, h := range tc.hellos(l) {
					err := pki.handshake(addr, h)
					if (err == nil) != h.ok {
						t.Errorf("%s with %s (flags %s): handshake error %v, want accepted %v", tls.VersionName(h.version), tls.CipherSuiteName(h.suite), strings.Join(flags(l), " "), err, h.ok)
					}
				}
			})
		}
	}
}

// flags are the listener's proxy-server flags as the generator writes them.
func flags(l Listener) []string {
	var out []string
	if l.MinVersion != "" {
		out = append(out, "--"+proxyversion.TLSMinVersion.Flag+"="+string(l.MinVersion))
	}
	if len(l.Suites) > 0 {
		out = append(out, "--"+proxyversion.FlagCipherSuites+"="+strings.Join(l.Suites, ","))
	}
	return out
}

// startServer runs proxy-server of v on loopback with the listener's flags
// and returns its agent address once it accepts connections.
func startServer(t *testing.T, v *proxyversion.Version, p *pki, l Listener) string {
	bin := tooltest.ProxyBin(t, v, "proxy-server")
	dir, err := os.MkdirTemp("", "tlsp") // short: the socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ports := freePorts(t, 3)
	argv := append([]string{bin, "--mode=grpc", "--uds-name=" + filepath.Join(dir, "s.sock"), "--server-port=0",
		"--agent-bind-address=127.0.0.1", "--agent-port=" + ports[0], "--health-bind-address=127.0.0.1", "--health-port=" + ports[1], "--admin-port=" + ports[2],
		"--cluster-cert=" + p.serverCert, "--cluster-key=" + p.serverKey, "--cluster-ca-cert=" + p.caCert}, flags(l)...)
	proc := proctest.Start(t, proctest.Spec{Name: "proxy-server", LogDir: dir, Argv: argv})
	addr := net.JoinHostPort("127.0.0.1", ports[0])
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		if !proc.Running() || time.Now().After(deadline) {
			t.Fatalf("proxy-server %s never listened on %s: %v\n%s", v.Name, addr, proc.Err(), proc.Tail(30))
		}
	}
}

func freePorts(t *testing.T, n int) []string {
	var out []string
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		out = append(out, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	}
	return out
}

// pki is a CA, the server's certificate and an agent's, all ECDSA P-256.
type pki struct {
	caCert, serverCert, serverKey string
	roots                         *x509.CertPool
	agent                         tls.Certificate
}

func newPKI(t *testing.T) *pki {
	dir := t.TempDir()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, caKey.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	leaf := func(serial int64, usage x509.ExtKeyUsage) ([]byte, *ecdsa.PrivateKey) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			ExtKeyUsage: []x509.ExtKeyUsage{usage}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
		if err != nil {
			t.Fatal(err)
		}
		return der, key
	}
	serverDER, serverKey := leaf(2, x509.ExtKeyUsageServerAuth)
	agentDER, agentKey := leaf(3, x509.ExtKeyUsageClientAuth)
	p := &pki{caCert: filepath.Join(dir, "ca.crt"), serverCert: filepath.Join(dir, "server.crt"), serverKey: filepath.Join(dir, "server.key"),
		roots: x509.NewCertPool(), agent: tls.Certificate{Certificate: [][]byte{agentDER}, PrivateKey: agentKey}}
	p.roots.AddCert(ca)
	keyDER, err := x509.MarshalPKCS8PrivateKey(serverKey)
	if err != nil {
		t.Fatal(err)
	}
	for file, block := range map[string]*pem.Block{p.caCert: {Type: "CERTIFICATE", Bytes: caDER}, p.serverCert: {Type: "CERTIFICATE", Bytes: serverDER}, p.serverKey: {Type: "PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(file, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// handshake makes h against addr as an agent does (its certificate, the
// CA's roots) and reads until the server has judged the certificate too,
// which under TLS 1.3 it does after the client's handshake returns.
func (p *pki) handshake(addr string, h hello) error {
	cfg := &tls.Config{RootCAs: p.roots, Certificates: []tls.Certificate{p.agent}, ServerName: "127.0.0.1",
		MinVersion: h.version, MaxVersion: h.version, NextProtos: []string{"h2"}}
	if h.suite != 0 {
		cfg.CipherSuites = []uint16{h.suite}
	}
	c, err := tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, "tcp", addr, cfg)
	if err != nil {
		return err
	}
	defer c.Close()
	if got := c.ConnectionState(); got.Version != h.version || (h.suite != 0 && got.CipherSuite != h.suite) {
		return fmt.Errorf("negotiated %s with %s", tls.VersionName(got.Version), tls.CipherSuiteName(got.CipherSuite))
	}
	return nil
}
