package kustbuild

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// layeredOverlay writes an overlay that includes overlays/ipv4 and points
// the agents at the server's health port; withCheck lists base/check last,
// as docs/upi.md says every overlay must. It lives in an exec-wired copy of
// the tree (tooltest.ExecWiredTree), which the kustomize CLI here runs with
// --enable-exec and no container runtime.
func layeredOverlay(t *testing.T, withCheck bool) string {
	t.Helper()
	dir := filepath.Join(tooltest.ExecWiredTree(t), "layered")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	k := "resources:\n- ../overlays/ipv4\n" + tooltest.MisdialAgents(bundle.DefaultAgentPort)
	if withCheck {
		k += "transformers:\n- ../base/check\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLayeredOverlayAgreesWithKustomizeCLI: a check runs on the output of
// the kustomization that lists it, in-process as in the kustomize CLI. An
// overlay that includes ../ipv4 and breaks it after ipv4's own check builds
// in both (the same broken bytes, which `check` then rejects); listing
// base/check last in the overlay makes both fail.
func TestLayeredOverlayAgreesWithKustomizeCLI(t *testing.T) {
	cli := newKustomizeCLI(t)
	opts := inputs(t, "ipv4")
	for _, withCheck := range []bool{false, true} {
		name := map[bool]string{false: "overlay without base/check", true: "overlay listing base/check last"}[withCheck]
		t.Run(name, func(t *testing.T) {
			dir := layeredOverlay(t, withCheck)
			want, cliErr := cli.build(t, dir, opts, "--enable-alpha-plugins", "--enable-exec")
			got, err := Build(dir, opts)
			if (cliErr == nil) != (err == nil) {
				t.Fatalf("kustomize CLI error %v, in-process error %v: they must agree", cliErr, err)
			}
			if withCheck {
				if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("agents dial port %d", bundle.DefaultServerHealthPort)) {
					t.Fatalf("in-process error %v, want the check's agent port finding", err)
				}
				return
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("in-process build differs from the kustomize CLI:\n%s", unifiedDiff(t, want, got))
			}
			findings, err := check.Check(got, check.Options{})
			if err != nil || !hasRule(findings, "agent-port-mismatch") {
				t.Fatalf("check on the unchecked build: %v %v; want agent-port-mismatch", findings, err)
			}
		})
	}
}

func hasRule(fs framework.Results, rule string) bool {
	for _, f := range fs {
		if result.Rule(f) == rule && f.Severity == framework.Error {
			return true
		}
	}
	return false
}
