//go:build e2e

package e2e

import (
	"crypto/x509"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// TestSecurity checks that the rendered mutual TLS really authenticates both
// ends: a wrong agent or server certificate means no tunnel, and with
// failurePolicy Fail the webhook call fails instead of being skipped.
func TestSecurity(t *testing.T) {
	e := newEnv(t, bundle.ModeHTTPConnect, ipv4)
	e.h.startServer(t)
	certDir := filepath.Join(e.root, "opt/openshift/tls/konnectivity")
	foreign := newTestCA(t, "foreign-signer")
	fCrt, fKey := foreign.leaf(t, "konnectivity-agent", x509.ExtKeyUsageClientAuth)

	cases := []struct {
		name string
		// agent is the argv to run; setup may change the host before it starts.
		agent   func(t *testing.T) []string
		setup   func(t *testing.T)
		restore func(t *testing.T)
		// wantLog is a regular expression-free substring of the refusal in the
		// agent's log (the TLS alert the server sent, or the agent's own error).
		wantLog []string
	}{
		{
			name: "agent without a client certificate",
			agent: func(t *testing.T) []string {
				return agentVariant(t, e, nil, func(args []string) []string {
					return dropFlags(args, "--agent-cert", "--agent-key")
				})
			},
			wantLog: []string{"certificate required", "bad certificate", "handshake failure"},
		},
		{
			name: "agent certificate from another CA",
			agent: func(t *testing.T) []string {
				return agentVariant(t, e, map[string][]byte{"tls.crt": fCrt, "tls.key": fKey}, nil)
			},
			// Go's TLS client sends no certificate the server's CA list does
			// not cover, so the server sees none; either way it refuses.
			wantLog: []string{"unknown certificate authority", "bad certificate", "certificate required"},
		},
		{
			name:  "server certificate without the bootstrap IP",
			agent: func(t *testing.T) []string { return e.h.agent.argv },
			setup: func(t *testing.T) {
				ca := loadCA(t, certDir)
				crt, key := ca.leaf(t, "konnectivity-server", x509.ExtKeyUsageServerAuth, "192.0.2.99")
				swapServerCert(t, e, certDir, crt, key)
			},
			wantLog: []string{"certificate is valid for 192.0.2.99, not " + e.fam.bootIP},
		},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				orig := readFiles(t, certDir, "server.crt", "server.key")
				tc.setup(t)
				t.Cleanup(func() { swapServerCert(t, e, certDir, orig["server.crt"], orig["server.key"]) })
			}
			agent := startProc(t, e.tp.node, "proxy-agent-bad-"+string(rune('a'+i)), e.h.dir, tc.agent(t))
			_, err := eventually(20*time.Second, 100*time.Millisecond, func() error {
				for _, w := range tc.wantLog {
					if strings.Contains(agent.log(), w) {
						return nil
					}
				}
				return errors.New("no refusal in the agent log yet")
			})
			if err != nil {
				t.Fatalf("want one of %q in the agent log: %v", tc.wantLog, err)
			}
			if err := admit(e.kas.client, false); err == nil {
				t.Fatal("webhook call succeeded with a refused agent; failurePolicy Fail should have failed it")
			} else {
				t.Logf("webhook call fails as it must: %v", err)
			}
			agent.stop()
		})
	}

	t.Run("the rendered agent connects (control)", func(t *testing.T) {
		e.h.startAgent(t, e.h.agent.argv)
		waitAdmitted(t, e.kas.client, 30*time.Second)
		checkAdmission(t, e.kas.client)
	})
}

// agentVariant maps the rendered DaemonSet with its args changed by mutate
// and, when files is set, its Secret files replaced.
func agentVariant(t *testing.T, e *env, files map[string][]byte, mutate func([]string) []string) []string {
	t.Helper()
	spec := e.h.b.daemonSet.Spec.Template.Spec.DeepCopy()
	if mutate != nil {
		spec.Containers[0].Args = mutate(spec.Containers[0].Args)
	}
	secrets := e.h.b.secretDirs(t, t.TempDir())
	if files != nil {
		writeFiles(t, secrets[bundle.AgentSecretName], files)
	}
	h, err := mapContainer(*spec, spec.Containers[0].Name, e.root, secrets, map[string]string{
		bundle.AgentCommand: tool(t, "proxy-agent"),
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
	e.h.serverProc.stop()
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
