//go:build e2e

package e2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// tlsHello is one handshake with the agent port: a TLS version, for TLS
// 1.2 the one suite offered, and whether the listener must take it.
type tlsHello struct {
	version uint16
	suite   uint16 // 0 for TLS 1.3, whose suites Go picks
	ok      bool
}

// TestTLSProfile renders the bundle for the cluster's TLS profile as render
// finds it on the bootstrap host (none: Intermediate; Modern and a Custom
// one in the install's APIServer manifest under --root), starts the
// rendered proxy-server in the bootstrap namespace and, from the node
// namespace with the rendered agent certificate, makes handshakes the
// profile allows and ones it forbids against the agent port; then the real
// agent connects. Where the server cannot set a TLS 1.3 minimum (no
// --tls-min-version) TLS 1.2 is taken, with Intermediate's suites, as
// docs/proxy-versions.md says.
func TestTLSProfile(t *testing.T) {
	const apiserver = "apiVersion: config.openshift.io/v1\nkind: APIServer\nmetadata:\n  name: cluster\nspec:\n  tlsSecurityProfile:\n"
	aes128, aes256, cbc := tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA
	floor := proxyVersion.Has(proxyversion.TLSMinVersion.Flag)
	for _, tc := range []struct {
		name, manifest string
		hellos         []tlsHello
	}{
		{"Intermediate", "", []tlsHello{{tls.VersionTLS12, aes128, true}, {tls.VersionTLS12, aes256, true}, {tls.VersionTLS12, cbc, false}, {tls.VersionTLS13, 0, true}}},
		{"Modern", "    type: Modern\n    modern: {}\n", []tlsHello{{tls.VersionTLS12, aes128, !floor}, {tls.VersionTLS12, cbc, false}, {tls.VersionTLS13, 0, true}}},
		{"Custom", "    type: Custom\n    custom:\n      minTLSVersion: VersionTLS12\n      ciphers: [ECDHE-ECDSA-AES256-GCM-SHA384, TLS_AES_128_GCM_SHA256]\n",
			[]tlsHello{{tls.VersionTLS12, aes256, true}, {tls.VersionTLS12, aes128, false}, {tls.VersionTLS13, 0, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := shortRoot(t)
			if tc.manifest != "" {
				writeFiles(t, filepath.Join(root, "opt/openshift/manifests"), map[string][]byte{"99-apiserver-tls.yaml": []byte(apiserver + tc.manifest)})
			}
			renderInto(t, root, proxyVersion.DefaultMode, ipv4)
			e := &env{name: "tls/" + tc.name, fam: ipv4, tp: newTopology(t, ipv4), root: root}
			e.h = mapBundle(t, e.tp, root)
			e.h.startServer(t)
			cfg := agentTLS(t, e)
			addr := net.JoinHostPort(ipv4.bootIP, flagValue(t, e.h.server.argv, "--agent-port"))
			for _, h := range tc.hellos {
				err := helloFromNode(e, addr, cfg, h)
				if (err == nil) != h.ok {
					t.Errorf("%s with %s: handshake error %v, want taken %v (server flags: %s)", tls.VersionName(h.version), tls.CipherSuiteName(h.suite), err, h.ok,
						strings.Join(tlsFlags(e.h.server.argv), " "))
				}
			}
			e.h.startAgent(t, e.h.agent.argv)
			if _, err := eventually(tunnelWait, 50*time.Millisecond, func() error { return serverReady(e) }); err != nil {
				t.Errorf("the agent never connected under %s: %v\n%s", tc.name, err, e.h.agentProc.Tail(20))
			}
		})
	}
}

// agentTLS is the rendered agent's client configuration: its certificate
// and the CA it trusts, from its mapped command line.
func agentTLS(t *testing.T, e *env) *tls.Config {
	t.Helper()
	cert, err := tls.LoadX509KeyPair(flagValue(t, e.h.agent.argv, "--agent-cert"), flagValue(t, e.h.agent.argv, "--agent-key"))
	if err != nil {
		t.Fatal(err)
	}
	ca, err := os.ReadFile(flagValue(t, e.h.agent.argv, "--ca-cert"))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		t.Fatal("the agent's CA file holds no certificate")
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: roots, ServerName: ipv4.bootIP, NextProtos: []string{"h2"}}
}

// helloFromNode makes h from the node namespace and checks what was
// negotiated; the server judges the client certificate before the agent's
// first read under TLS 1.3, so the connection is read from once.
func helloFromNode(e *env, addr string, base *tls.Config, h tlsHello) error {
	cfg := base.Clone()
	cfg.MinVersion, cfg.MaxVersion = h.version, h.version
	if h.suite != 0 {
		cfg.CipherSuites = []uint16{h.suite}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw, err := nsDialer(e.tp.node)(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("dial: %w", err)
	}
	c := tls.Client(raw, cfg)
	defer c.Close()
	if err := c.HandshakeContext(ctx); err != nil {
		return err
	}
	if got := c.ConnectionState(); got.Version != h.version || (h.suite != 0 && got.CipherSuite != h.suite) {
		return fmt.Errorf("negotiated %s with %s", tls.VersionName(got.Version), tls.CipherSuiteName(got.CipherSuite))
	}
	return nil
}

// tlsFlags are the listener's TLS flags of a server command line, for messages.
func tlsFlags(argv []string) []string {
	var out []string
	for _, a := range argv {
		if strings.HasPrefix(a, "--"+proxyversion.TLSMinVersion.Flag+"=") || strings.HasPrefix(a, "--"+proxyversion.FlagCipherSuites+"=") {
			out = append(out, a)
		}
	}
	return out
}
