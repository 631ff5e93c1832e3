//go:build e2e

package e2e

import (
	"crypto/x509"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// fixtureRender stands in for `konnectivity-bundle render` until that command
// lands: it writes the generator's objects to their host-path annotations
// under root, the certificates and agent Secret as docs/bundle-shape.md says,
// and a state file in render's format.
func fixtureRender(t *testing.T, root string, spec bundle.Spec) {
	t.Helper()
	spec.Default(nil)
	if err := spec.Validate(); err != nil {
		t.Fatalf("fixture spec: %v", err)
	}
	nodes, err := bundle.Generate(&spec)
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	st := map[string]any{"version": 1, "namespace": spec.Namespace}
	var files []map[string]string
	write := func(hostPath, placement string, data []byte) {
		p := filepath.Join(root, hostPath)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, map[string]string{"path": hostPath[1:], "placement": placement})
	}
	for _, n := range nodes {
		ann := n.GetAnnotations()
		placement, hostPath := ann[bundle.AnnotationPlacement], ann[bundle.AnnotationHostPath]
		for _, k := range []string{bundle.AnnotationPlacement, bundle.AnnotationHostPath, bundle.AnnotationKASConfigMount} {
			delete(ann, k)
		}
		if err := n.SetAnnotations(ann); err != nil {
			t.Fatal(err)
		}
		if placement == bundle.PlacementKASEgressConfig || placement == bundle.PlacementKASConfigOverride {
			if err := n.PipeE(kyaml.Clear("metadata")); err != nil {
				t.Fatal(err)
			}
		}
		write(hostPath, placement, []byte(n.MustString()))
	}
	ca := newTestCA(t, "konnectivity-signer")
	serverCrt, serverKey := ca.leaf(t, "konnectivity-server", x509.ExtKeyUsageServerAuth, spec.BootstrapIP)
	agentCrt, agentKey := ca.leaf(t, "konnectivity-agent", x509.ExtKeyUsageClientAuth)
	writeFiles(t, filepath.Join(root, spec.Paths.CertDir), map[string][]byte{
		"ca.crt": ca.certPEM, "ca.key": ca.keyPEM, "server.crt": serverCrt, "server.key": serverKey, "agent.crt": agentCrt, "agent.key": agentKey,
	})
	secret := corev1.Secret{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Name: bundle.AgentSecretName, Namespace: spec.Namespace, Labels: map[string]string{bundle.LabelBootstrapOnly: "true", bundle.LabelApp: bundle.AppAgent}},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{"tls.crt": agentCrt, "tls.key": agentKey, "ca.crt": ca.certPEM},
	}
	sy, err := yaml.Marshal(secret)
	if err != nil {
		t.Fatal(err)
	}
	write(spec.Paths.ClusterManifest(bundle.AgentSecretFileName), bundle.PlacementClusterManifest, sy)
	st["files"] = files
	sj, _ := json.Marshal(st)
	writeFiles(t, filepath.Join(root, filepath.Dir(statePath)), map[string][]byte{filepath.Base(statePath): sj})
}
