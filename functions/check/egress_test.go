package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"k8s.io/apiserver/pkg/server/egressselector"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestEgressAgreesWithKAS: for the egress object of every case, the checker
// reports egress-api-version, egress-invalid or an unknown-field of the
// egress object exactly when the KAS's own
// file loader and validator (egressselector, fed the file render writes)
// reject it.
func TestEgressAgreesWithKAS(t *testing.T) {
	seen := map[bool]int{}
	for _, file := range caseFiles(t) {
		_, stream, opts := loadCase(t, file)
		egress := egressDocument(t, stream)
		if egress == "" {
			continue
		}
		path := filepath.Join(t.TempDir(), "egress-selector-config.yaml")
		if err := os.WriteFile(path, []byte(egress), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := egressselector.ReadEgressSelectorConfiguration(path)
		kasRejects := err != nil || len(egressselector.ValidateEgressSelectorConfiguration(cfg)) > 0
		fs, cerr := Check(stream, opts)
		if cerr != nil {
			t.Fatal(cerr)
		}
		checkerRejects := false
		for _, f := range fs {
			rule := result.Rule(f)
			egressField := rule == "unknown-field" && strings.HasPrefix(result.Object(f), egressconfig.Kind+" ")
			checkerRejects = checkerRejects || rule == "egress-invalid" || rule == "egress-api-version" || egressField
		}
		if kasRejects != checkerRejects {
			t.Errorf("%s: KAS rejects=%v (load error %v), checker rejects=%v", file, kasRejects, err, checkerRejects)
		}
		seen[kasRejects]++
	}
	if seen[true] < 3 || seen[false] < 10 {
		t.Errorf("too few egress variants compared: %v", seen)
	}
}

// egressDocument returns the stream's EgressSelectorConfiguration as the host
// file render writes: without metadata.
func egressDocument(t *testing.T, stream []byte) string {
	t.Helper()
	nodes, err := kio.FromBytes(stream)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if n.GetKind() != egressconfig.Kind {
			continue
		}
		if _, err := n.Pipe(yaml.Clear("metadata")); err != nil {
			t.Fatal(err)
		}
		s, err := n.String()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(s) + "\n"
	}
	return ""
}
