package check

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// FuzzCheck: on any input Check does not panic, and either reports a parse
// error or returns well-formed findings, the same ones every time.
func FuzzCheck(f *testing.F) {
	good, err := os.ReadFile("testdata/bundle/good.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(""))
	f.Add([]byte("kind: Pod\nspec:\n  containers:\n  - command: [proxy-server]\n    args: [--uds-name=/x, --server-port]\n"))
	f.Add([]byte("kind: DaemonSet\nspec:\n  template:\n    spec:\n      containers: 3\n"))
	f.Add([]byte("kind: EgressSelectorConfiguration\napiVersion: apiserver.k8s.io/v1beta1\negressSelections: [{name: cluster}]\n"))
	f.Add([]byte("kind: KubeAPIServerConfig\napiServerArguments: {egress-selector-config-file: [1, 2]}\n"))
	cases, _ := filepath.Glob("testdata/cases/*.yaml")
	for _, c := range cases {
		if data, err := os.ReadFile(c); err == nil {
			f.Add(data)
		}
	}
	certs, err := ReadCertDir("testdata/certs/good")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		opts := Options{CertFiles: certs}
		got, err := Check(in, opts)
		if err != nil {
			if got != nil {
				t.Fatalf("error %v together with findings %v", err, got)
			}
			return
		}
		for _, fd := range got {
			if result.Rule(fd) == "" || result.Object(fd) == "" || fd.Message == "" || (fd.Severity != framework.Error && fd.Severity != framework.Warning) {
				t.Fatalf("malformed finding %+v", fd)
			}
			if strings.ToLower(result.Rule(fd)) != result.Rule(fd) || strings.ContainsAny(result.Rule(fd), " _") {
				t.Fatalf("rule id %q is not kebab-case", result.Rule(fd))
			}
		}
		again, _ := Check(in, opts)
		if !reflect.DeepEqual(got, again) {
			t.Fatalf("not deterministic:\n%v\n%v", got, again)
		}
	})
}
