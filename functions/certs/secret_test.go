package certs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/cryptotest"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func TestAgentSecret(t *testing.T) {
	cryptotest.SetGlobalRandom(t, 7)
	r := ensure(t, options(t, "192.0.2.10"))
	doc, err := agentSecretYAML(r, "openshift-bootstrap-konnectivity", "/opt/openshift/manifests/konnectivity-agent-certs-secret.yaml")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "agent-secret.yaml")
	if goldenfile.Update(t) {
		if err := os.WriteFile(golden, doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(doc, want) {
		t.Errorf("AgentSecretNode differs from %s (go test -update refreshes it):\n%s", golden, doc)
	}
	var s corev1.Secret
	if err := yaml.UnmarshalStrict(doc, &s); err != nil {
		t.Fatalf("not a Secret: %v", err)
	}
	checks := map[string]bool{
		"name":            s.Name == "konnectivity-agent-certs" && s.Namespace == "openshift-bootstrap-konnectivity",
		"type":            s.Type == corev1.SecretTypeTLS,
		"labels":          s.Labels["openshift.io/bootstrap-only"] == "true" && s.Labels["app"] == "konnectivity-agent",
		"placement":       s.Annotations["bundle.konnectivity.io/placement"] == "cluster-manifest",
		"host-path":       s.Annotations["bundle.konnectivity.io/host-path"] == "/opt/openshift/manifests/konnectivity-agent-certs-secret.yaml",
		"tls.crt":         bytes.Equal(s.Data["tls.crt"], r.Files[hostlayout.AgentCertFile]),
		"tls.key":         bytes.Equal(s.Data["tls.key"], r.Files[hostlayout.AgentKeyFile]),
		"ca.crt":          bytes.Equal(s.Data["ca.crt"], r.Files[hostlayout.CACertFile]),
		"three keys":      len(s.Data) == 3,
		"no CA key":       !bytes.Contains(doc, []byte(strings.TrimSpace(string(r.Files[hostlayout.CAKeyFile])))),
		"no local-config": !bytes.Contains(doc, []byte("local-config")),
	}
	for name, ok := range checks {
		if !ok {
			t.Errorf("Secret %s wrong:\n%s", name, doc)
		}
	}
}

func TestAgentSecretRejects(t *testing.T) {
	r := &Result{Files: map[string][]byte{hostlayout.CACertFile: []byte("c"), hostlayout.AgentCertFile: []byte("a"), hostlayout.AgentKeyFile: []byte("k")}}
	cases := []struct{ name, ns, path, want string }{
		{"bad namespace", "Not_A_Namespace", "/x.yaml", "namespace"},
		{"empty namespace", "", "/x.yaml", "namespace"},
		{"relative host path", "ns", "x.yaml", "host path"},
		{"unclean host path", "ns", "/a/../x.yaml", "host path"},
	}
	for _, tc := range cases {
		if _, err := agentSecretYAML(r, tc.ns, tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one about %s", tc.name, err, tc.want)
		}
	}
	if _, err := agentSecretYAML(nil, "ns", "/x.yaml"); err == nil {
		t.Error("nil result: no error")
	}
	if _, err := agentSecretYAML(&Result{}, "ns", "/x.yaml"); err == nil || !strings.Contains(err.Error(), "ca.crt") {
		t.Errorf("empty result: error %v, want one naming ca.crt", err)
	}
}

// agentSecretYAML is the Secret as the bytes render writes: the node's String.
func agentSecretYAML(r *Result, namespace, hostPath string) ([]byte, error) {
	n, err := AgentSecretNode(r, namespace, hostPath)
	if err != nil {
		return nil, err
	}
	s, err := n.String()
	return []byte(s), err
}
