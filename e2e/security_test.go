//go:build e2e

package e2e

import (
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bundlefn "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle"
	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/proctest"
)

// TestSecurity checks that the rendered mutual TLS really authenticates both
// ends: a wrong agent or server certificate means no tunnel, and with
// failurePolicy Fail the webhook call fails instead of being skipped. Each
// case also requires check to flag the same bundle and certificates, so the
// rules the binaries only enforce at the TLS handshake are cross-checked too.
func TestSecurity(t *testing.T) {
	e := newEnv(t, bundle.ModeHTTPConnect, ipv4)
	e.h.startServer(t)
	certDir := filepath.Join(e.root, "opt/openshift/tls/konnectivity")
	foreign := newTestCA(t, "foreign-signer")
	fCrt, fKey := foreign.leaf(t, "konnectivity-agent", x509.ExtKeyUsageClientAuth)

	noCert := func(args []string) []string { return dropFlags(args, "--agent-cert", "--agent-key") }
	cases := []refusalCase{
		{name: "agent without a client certificate", mutate: noCert, rule: "agent-cert-required"},
		{name: "agent certificate from another CA", agentFiles: map[string][]byte{"tls.crt": fCrt, "tls.key": fKey}, rule: "agent-cert-wrong-ca"},
		{
			name: "server certificate without the bootstrap IP",
			setup: func(t *testing.T) {
				ca := loadCA(t, certDir)
				crt, key := ca.leaf(t, "konnectivity-server", x509.ExtKeyUsageServerAuth, "192.0.2.99")
				swapServerCert(t, e, certDir, crt, key)
			},
			rule:    "server-cert-san-missing",
			wantLog: "certificate is valid for 192.0.2.99, not " + e.fam.bootIP,
		},
	}
	stream, err := kustbuild.Build(e.fam.name, kustbuild.Options{BootstrapIP: netip.MustParseAddr(e.fam.bootIP), Image: testImage, ProxyVersion: proxyVersion})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { e.refusal(t, tc, stream, certDir, fmt.Sprintf("proxy-agent-bad-%d", i)) })
	}

	t.Run("the rendered agent connects (control)", func(t *testing.T) {
		e.h.startAgent(t, e.h.agent.argv)
		waitAdmitted(t, e.kas.client, tunnelWait)
		if err := serverReady(e); err != nil {
			t.Errorf("proxy-server not ready with the rendered agent connected: %v", err)
		}
		checkAdmission(t, e.kas.client)
	})
}

// refusalCase is one way the agent and server must fail to authenticate.
type refusalCase struct {
	name string
	// mutate changes the DaemonSet's agent args; agentFiles replace Secret
	// keys (tls.crt, tls.key) and the same files in the certificate directory
	// check sees; setup changes the host before the agent starts.
	mutate     func([]string) []string
	agentFiles map[string][]byte
	setup      func(t *testing.T)
	// rule is what check reports for the same bundle and certificates.
	rule string
	// wantLog, when set, is the agent's own reason for refusing the server.
	// When the server refuses the agent, TLS 1.3 lets the agent see an alert
	// or just a broken pipe depending on timing, so those cases rely on the
	// server's side: no agent registered.
	wantLog string
}

// refusal runs one case: check flags it, the agent keeps failing to connect,
// the server has no agent, and the webhook call fails closed.
func (e *env) refusal(t *testing.T, tc refusalCase, stream []byte, certDir, procName string) {
	if err := serverReady(e); err == nil {
		t.Fatal("proxy-server is ready before any agent ran; the readiness check would prove nothing")
	}
	if tc.setup != nil {
		orig := readFiles(t, certDir, "server.crt", "server.key")
		tc.setup(t)
		t.Cleanup(func() { swapServerCert(t, e, certDir, orig["server.crt"], orig["server.key"]) })
	}
	checkAgrees(t, stream, certDir, tc.mutate, tc.agentFiles, tc.rule)
	agent := proctest.Start(t, proctest.Spec{NS: e.tp.node, Name: procName, LogDir: e.h.dir, Argv: agentVariant(t, e, tc.agentFiles, tc.mutate)})
	defer agent.Stop()
	// Wait until the agent has tried and failed to connect twice.
	_, err := eventually(tunnelWait, 100*time.Millisecond, func() error {
		if n := strings.Count(agent.Log(), "cannot connect once"); n < 2 {
			return fmt.Errorf("%d failed connection attempts so far", n)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("agent: %v", err)
	}
	log := agent.Log()
	switch {
	case strings.Contains(log, "successfully connected"):
		t.Fatal("the agent connected to the server")
	case tc.wantLog != "" && !strings.Contains(log, tc.wantLog):
		t.Fatalf("agent log lacks %q", tc.wantLog)
	case serverReady(e) == nil:
		t.Fatal("proxy-server /readyz reports an agent connected")
	case admit(e.kas.client, false) == nil:
		t.Fatal("webhook call succeeded with a refused agent; failurePolicy Fail should have failed it")
	}
	t.Logf("refused; agent says: %s", lastLineWith(log, "cannot connect once"))
}

// checkAgrees runs check on the built bundle with the case's agent args and
// the certificate directory as the case leaves it, and requires rule.
func checkAgrees(t *testing.T, stream []byte, certDir string, mutate func([]string) []string, agentFiles map[string][]byte, rule string) {
	t.Helper()
	if mutate == nil {
		mutate = keep
	}
	broken, _ := breakStream(t, stream, flagCase{agent: true, mutate: mutate})
	certs := readFiles(t, certDir, "ca.crt", "ca.key", "server.crt", "server.key", "agent.crt", "agent.key")
	if agentFiles != nil {
		certs["agent.crt"], certs["agent.key"] = agentFiles["tls.crt"], agentFiles["tls.key"]
	}
	fs, err := check.Check(broken, check.Options{CertFiles: certs})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	assertRule(t, fs, rule)
}

// serverReady asks the proxy-server's health port whether an agent is connected.
func serverReady(e *env) error {
	port := flagValueOK(e.h.server.argv, "--health-port")
	c := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DialContext: nsDialer(e.tp.boot)}}
	resp, err := c.Get("http://" + net.JoinHostPort("127.0.0.1", port) + "/readyz")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("readyz %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	return nil
}

func lastLineWith(log, s string) string {
	lines := strings.Split(log, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], s) {
			return strings.TrimSpace(lines[i])
		}
	}
	return ""
}

// agentVariant maps the rendered DaemonSet with its args changed by mutate
// and, when files is set, its Secret files replaced.
func agentVariant(t *testing.T, e *env, files map[string][]byte, mutate func([]string) []string) []string {
	t.Helper()
	spec := e.h.b.daemonSet.Spec.Template.Spec.DeepCopy()
	if mutate != nil {
		c := mustContainer(t, *spec, hostlayout.AgentName)
		c.Args = mutate(c.Args)
	}
	secrets := e.h.b.secretDirs(t, t.TempDir())
	if files != nil {
		writeFiles(t, secrets[hostlayout.AgentSecretName], files)
	}
	h, err := mapContainer(*spec, hostlayout.AgentName, e.root, secrets, map[string]string{
		bundlefn.AgentCommand: tool(t, "proxy-agent"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return h.argv
}

// swapServerCert replaces the server certificate on the host and restarts
// the server so it loads it.
func swapServerCert(t *testing.T, e *env, dir string, crt, key []byte) {
	t.Helper()
	writeFiles(t, dir, map[string][]byte{"server.crt": crt, "server.key": key})
	e.h.serverProc.Stop()
	e.h.startServer(t)
}

// dropFlags removes every --name or --name=value argument.
func dropFlags(args []string, names ...string) []string {
	var out []string
next:
	for _, a := range args {
		for _, n := range names {
			if a == n || strings.HasPrefix(a, n+"=") {
				continue next
			}
		}
		out = append(out, a)
	}
	return out
}

func readFiles(t *testing.T, dir string, names ...string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = b
	}
	return out
}
