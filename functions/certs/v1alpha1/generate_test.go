package v1alpha1

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/certset"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestProcessGeneratesThenReuses runs the exported Process (real clock,
// real environment) twice: the first run writes the certificate directory,
// the second emits the same Secret from the files it left.
func TestProcessGeneratesThenReuses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	t.Setenv(bundle.EnvBootstrapIP, "2001:db8::7")
	config := kyaml.MustParse(`apiVersion: bundle.konnectivity.io/v1alpha1
kind: KonnectivityCerts
metadata: {name: certs}
spec: {generate: true, certDir: "` + dir + `"}
`)
	run := func() []byte {
		rl := &framework.ResourceList{FunctionConfig: config}
		if err := (Function{Getenv: os.Getenv, Generate: certset.EnsureDir}).Process(rl); err != nil {
			t.Fatal(err)
		}
		if len(rl.Items) != 1 {
			t.Fatalf("want one item (the Secret), got %d", len(rl.Items))
		}
		s, err := rl.Items[0].String()
		if err != nil {
			t.Fatal(err)
		}
		return []byte(s)
	}
	first := run()
	info, err := os.Stat(filepath.Join(dir, hostlayout.AgentCertFile))
	if err != nil {
		t.Fatalf("generate did not write the directory: %v", err)
	}
	agentCert, _ := os.ReadFile(filepath.Join(dir, hostlayout.AgentCertFile))
	if !bytes.Contains(first, []byte(base64.StdEncoding.EncodeToString(agentCert))) {
		t.Errorf("Secret tls.crt is not %s on disk:\n%s", hostlayout.AgentCertFile, first)
	}
	second := run()
	if !bytes.Equal(first, second) {
		t.Errorf("second run emitted a different Secret:\n%s\nvs\n%s", first, second)
	}
	if again, _ := os.Stat(filepath.Join(dir, hostlayout.AgentCertFile)); !again.ModTime().Equal(info.ModTime()) {
		t.Errorf("second run rewrote %s", hostlayout.AgentCertFile)
	}
}
