package kustbuild

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	certsfn "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/dispatch"
)

// TestCertDirIsTheKustomizations: a KonnectivityCerts config's relative
// spec.certDir is relative to the kustomization that lists it, as kustomize
// runs the exec function there (functions/certs/README.md). The in-process
// build must hand the writer that same directory, not one beneath whatever
// directory the command was started in; an absolute one stays as it is.
func TestCertDirIsTheKustomizations(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "abs")
	cases := []struct{ certDir, want string }{
		{"tls", "tls"},
		{"./a/../tls", "tls"},
		{"../outside", "../outside"},
		{abs, abs},
	}
	for _, tc := range cases {
		t.Run(tc.certDir, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ngenerators:\n- certs.yaml\n")
			write(t, filepath.Join(dir, "certs.yaml"), `apiVersion: bundle.konnectivity.io/v1alpha1
kind: KonnectivityCerts
metadata:
  name: konnectivity-certs
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ./konnectivity-bundle
        args: [fn]
spec:
  certDir: `+tc.certDir+`
  bootstrapIP: 192.0.2.10
  generate: true
`)
			var got string
			stop := errors.New("stop: the test's writer writes nothing")
			fns := dispatch.Functions{WriteCerts: func(o certsfn.Options) (*certsfn.Result, error) { got = o.Dir; return nil, stop }}
			if _, err := Build(dir, Options{Functions: fns}); !errors.Is(err, stop) && got == "" {
				t.Fatalf("build did not reach the writer: %v", err)
			}
			want := tc.want
			if !filepath.IsAbs(want) {
				want = filepath.Join(dir, want)
			}
			if got != want {
				t.Errorf("certDir %q: the writer got %q, want %q (the kustomization's directory is %s)", tc.certDir, got, want, dir)
			}
		})
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
