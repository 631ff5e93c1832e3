package dispatch

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	certsfn "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
)

// TestCertWriterIsTheOneHandedIn: spec.generate of the KonnectivityCerts
// function writes through the writer the binary hands Functions, and only
// that one; without one it is refused, naming the field.
func TestCertWriterIsTheOneHandedIn(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	list := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
functionConfig:
  apiVersion: bundle.konnectivity.io/v1alpha1
  kind: KonnectivityCerts
  metadata: {name: certs}
  spec: {generate: true, certDir: "` + dir + `", bootstrapIP: 192.0.2.10}
`
	var asked []string
	fake := func(opts certsfn.Options) (*certsfn.Result, error) {
		asked = append(asked, opts.Dir)
		return certsfn.Plan(opts) // plans in memory, writes nothing
	}
	var out bytes.Buffer
	if err := (Functions{WriteCerts: fake}).Run(strings.NewReader(list), &out, func(string) string { return "" }); err != nil {
		t.Fatalf("with a writer: %v", err)
	}
	if len(asked) != 1 || asked[0] != dir {
		t.Errorf("the writer was asked for %q, want once for %s", asked, dir)
	}
	if !strings.Contains(out.String(), "kind: Secret") {
		t.Errorf("no Secret in the output:\n%s", out.String())
	}
	err := (Functions{}).Run(strings.NewReader(list), &bytes.Buffer{}, func(string) string { return "" })
	if err == nil || !strings.Contains(err.Error(), "spec.generate") {
		t.Errorf("without a writer: got %v, want spec.generate refused", err)
	}
}
