package check

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestSkippedExecFunction reproduces the silent failure no-server-pod
// explains: the real kustomize with --enable-alpha-plugins but without
// --enable-exec builds an exec-wired overlay to nothing and exits 0.
func TestSkippedExecFunction(t *testing.T) {
	kustomize := tooltest.Bin(t, "kustomize")
	cmd := exec.Command(kustomize, "build", "--enable-alpha-plugins", filepath.Join(tooltest.ExecWiredTree(t), "overlays", "ipv4"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kustomize build without --enable-exec: %v\n%s", err, stderr.String())
	}
	fs, err := Check(stdout.Bytes(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || result.Rule(fs[0]) != "no-server-pod" || !strings.Contains(result.Fix(fs[0]), "--enable-exec") {
		t.Fatalf("want exactly no-server-pod with the --enable-exec fix, got\n%s", dump(fs))
	}
}
