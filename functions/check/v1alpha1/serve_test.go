package v1alpha1_test

import (
	"os"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/dispatch"
)

// TestMain: with EnvServe set, the test binary is the function kustomize
// execs, served by dispatch.Functions.Run, the entry point of the real binary (its YAML
// guard included), so the tests exercise what production runs.
func TestMain(m *testing.M) {
	if os.Getenv(v1alpha1.EnvServe) == "1" {
		if err := (dispatch.Functions{}).Run(os.Stdin, os.Stdout, os.Getenv); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
