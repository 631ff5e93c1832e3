package certs

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

var shapes = []struct {
	name, ip, algo string
	size           int
}{
	{"ecdsa-ipv4", "192.0.2.10", "", 0},
	{"ecdsa-ipv6", "2001:db8::10", "ecdsa", 256},
	{"rsa2048-ipv4", "198.51.100.20", "rsa", 0},
	{"rsa3072-ipv6", "2001:db8:1::20", "rsa", 3072},
}

// TestCertificatesVerify checks every certificate with Go's verifier, with
// a real mutual TLS handshake and with openssl, positives and negatives.
func TestCertificatesVerify(t *testing.T) {
	t.Parallel()
	for _, tc := range shapes {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := options(t, tc.ip)
			opts.KeyAlgorithm, opts.KeySize = tc.algo, tc.size
			r := ensure(t, opts)
			otherOpts := options(t, tc.ip) // an unrelated CA for negatives
			other := ensure(t, otherOpts)
			checkShape(t, r, tc.ip, opts)
			checkGoVerify(t, r, other, tc.ip)
			checkHandshake(t, r, tc.ip)
			checkOpenSSL(t, opts.Dir, otherOpts.Dir, tc.ip)
		})
	}
}

func checkShape(t *testing.T, r *Result, ip string, opts Options) {
	t.Helper()
	ca, server, agent := mustCert(t, r.Files[hostlayout.CACertFile]), mustCert(t, r.Files[hostlayout.ServerCertFile]), mustCert(t, r.Files[hostlayout.AgentCertFile])
	if ca.Subject.String() != "CN=konnectivity-signer,O=openshift" || !ca.IsCA || ca.MaxPathLen != 0 || !ca.MaxPathLenZero {
		t.Errorf("CA: subject %q IsCA %v MaxPathLen %d zero %v", ca.Subject, ca.IsCA, ca.MaxPathLen, ca.MaxPathLenZero)
	}
	if server.Subject.String() != "CN=konnectivity-server,O=openshift" || !slices.Equal(server.ExtKeyUsage, []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}) {
		t.Errorf("server: subject %q EKU %v", server.Subject, server.ExtKeyUsage)
	}
	if len(server.IPAddresses) != 1 || !server.IPAddresses[0].Equal(net.ParseIP(ip)) || len(server.DNSNames) != 0 {
		t.Errorf("server SANs: IP %v DNS %v, want only IP %s", server.IPAddresses, server.DNSNames, ip)
	}
	if agent.Subject.String() != "CN=konnectivity-agent,O=openshift" || !slices.Equal(agent.ExtKeyUsage, []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}) ||
		len(agent.IPAddresses)+len(agent.DNSNames) != 0 {
		t.Errorf("agent: subject %q EKU %v SANs %v %v", agent.Subject, agent.ExtKeyUsage, agent.IPAddresses, agent.DNSNames)
	}
	wantBefore, wantAfter := t0.Add(-backdate), t0.Add(DefaultValidity)
	for name, c := range map[string]*x509.Certificate{"ca": ca, "server": server, "agent": agent} {
		if !c.NotBefore.Equal(wantBefore) || !c.NotAfter.Equal(wantAfter) {
			t.Errorf("%s: valid %v..%v, want %v..%v", name, c.NotBefore, c.NotAfter, wantBefore, wantAfter)
		}
		if got, _ := specOf(c.PublicKey); got.String() != mustSpec(t, opts).String() {
			t.Errorf("%s: key %v, want %v", name, got, mustSpec(t, opts))
		}
	}
}

func mustSpec(t *testing.T, o Options) keySpec {
	k, err := parseKeySpec(o.KeyAlgorithm, o.KeySize)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func checkGoVerify(t *testing.T, r, other *Result, ip string) {
	t.Helper()
	pool := func(res *Result) *x509.CertPool {
		p := x509.NewCertPool()
		p.AddCert(mustCert(t, res.Files[hostlayout.CACertFile]))
		return p
	}
	server, agent := mustCert(t, r.Files[hostlayout.ServerCertFile]), mustCert(t, r.Files[hostlayout.AgentCertFile])
	verify := func(c *x509.Certificate, roots *x509.CertPool, eku x509.ExtKeyUsage) error {
		_, err := c.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: t0, KeyUsages: []x509.ExtKeyUsage{eku}})
		return err
	}
	cases := []struct {
		name string
		err  error
		ok   bool
	}{
		{"server as serverAuth", verify(server, pool(r), x509.ExtKeyUsageServerAuth), true},
		{"server for its IP", server.VerifyHostname(ip), true},
		{"agent as clientAuth", verify(agent, pool(r), x509.ExtKeyUsageClientAuth), true},
		{"server as clientAuth", verify(server, pool(r), x509.ExtKeyUsageClientAuth), false},
		{"agent as serverAuth", verify(agent, pool(r), x509.ExtKeyUsageServerAuth), false},
		{"server for another IP", server.VerifyHostname("192.0.2.99"), false},
		{"server for loopback", server.VerifyHostname("127.0.0.1"), false},
		{"server against another CA", verify(server, pool(other), x509.ExtKeyUsageServerAuth), false},
		{"agent against another CA", verify(agent, pool(other), x509.ExtKeyUsageClientAuth), false},
	}
	for _, c := range cases {
		if (c.err == nil) != c.ok {
			t.Errorf("Go verify %s: err = %v, want ok=%v", c.name, c.err, c.ok)
		}
	}
}

// checkHandshake runs mutual TLS over loopback the way proxy-server and
// proxy-agent use these files: the agent checks the server against the
// bootstrap IP, the server requires a client certificate from the CA.
func checkHandshake(t *testing.T, r *Result, ip string) {
	t.Helper()
	serverPair, err := tls.X509KeyPair(r.Files[hostlayout.ServerCertFile], r.Files[hostlayout.ServerKeyFile])
	if err != nil {
		t.Fatal(err)
	}
	agentPair, err := tls.X509KeyPair(r.Files[hostlayout.AgentCertFile], r.Files[hostlayout.AgentKeyFile])
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(r.Files[hostlayout.CACertFile])
	now := func() time.Time { return t0 }
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{serverPair},
		ClientCAs: roots, ClientAuth: tls.RequireAndVerifyClientCert, Time: now})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	serverErr := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			err = c.(*tls.Conn).Handshake()
			c.Close()
		}
		serverErr <- err
	}()
	conn, err := tls.Dial("tcp", ln.Addr().String(), &tls.Config{RootCAs: roots, ServerName: ip,
		Certificates: []tls.Certificate{agentPair}, Time: now})
	if err != nil {
		t.Fatalf("agent handshake with server %s: %v", ip, err)
	}
	conn.Close()
	if err := <-serverErr; err != nil {
		t.Fatalf("server side of handshake: %v", err)
	}
}

func checkOpenSSL(t *testing.T, dir, otherDir, ip string) {
	t.Helper()
	ca, otherCA := filepath.Join(dir, hostlayout.CACertFile), filepath.Join(otherDir, hostlayout.CACertFile)
	server, agent := filepath.Join(dir, hostlayout.ServerCertFile), filepath.Join(dir, hostlayout.AgentCertFile)
	cases := []struct {
		name     string
		ca, cert string
		args     []string
		ok       bool
	}{
		{"CA self-verifies", ca, ca, nil, true},
		{"server sslserver with IP", ca, server, []string{"-purpose", "sslserver", "-verify_ip", ip}, true},
		{"agent sslclient", ca, agent, []string{"-purpose", "sslclient"}, true},
		{"server as sslclient", ca, server, []string{"-purpose", "sslclient"}, false},
		{"agent as sslserver", ca, agent, []string{"-purpose", "sslserver"}, false},
		{"server wrong IP", ca, server, []string{"-purpose", "sslserver", "-verify_ip", "192.0.2.99"}, false},
		{"server other CA", otherCA, server, []string{"-purpose", "sslserver", "-verify_ip", ip}, false},
		{"agent other CA", otherCA, agent, []string{"-purpose", "sslclient"}, false},
	}
	for _, c := range cases {
		out, err := opensslVerify(t, c.ca, c.cert, t0, c.args...)
		ok := err == nil && strings.Contains(out, ": OK")
		if ok != c.ok {
			t.Errorf("openssl verify %s: ok=%v, want %v\n%s", c.name, ok, c.ok, out)
		}
	}
}
