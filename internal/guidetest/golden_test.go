package guidetest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestGoldenOverlayRefreshesOne: in a copy whose ipv6 overlay changed, the
// golden check make verify runs fails naming the one command that refreshes
// that overlay; that command (make golden-overlay OVERLAY=ipv6) runs with
// no real tools and no kustomize on PATH, rewrites testdata/golden/ipv6.yaml
// and no other golden file, and the check then passes.
func TestGoldenOverlayRefreshesOne(t *testing.T) {
	sb := newSandbox(t, "konnectivity-bundle")
	goDir, env := goToolchain(t)
	sb.path = goDir + ":/usr/bin:/bin"
	env = append(env, "KB_TOOLS_BIN="+t.TempDir())
	patch := filepath.Join(sb.repo, "overlays", "ipv6", "config", "config-patch.yaml")
	tooltest.EditFile(t, patch, "ipFamily: ipv6", "ipFamily: ipv6\n  server:\n    agentPort: 9191")
	before := goldens(t, sb.repo)

	const verify = "go test ./internal/fnrun/kustbuild -run 'TestGolden$' -count=1" // make verify's golden check
	out, err := sb.run(verify, env...)
	if err == nil || !strings.Contains(out, "then run make golden-overlay OVERLAY=ipv6)") {
		t.Fatalf("the golden check of a drifted ipv6 overlay: %v; want a failure naming make golden-overlay OVERLAY=ipv6:\n%s", err, lastLines(out, 30))
	}
	if out, err := sb.run("make -s golden-overlay OVERLAY=ipv6", env...); err != nil {
		t.Fatalf("make golden-overlay OVERLAY=ipv6: %v\n%s", err, lastLines(out, 30))
	}
	after := goldens(t, sb.repo)
	for name, data := range before {
		changed := !bytes.Equal(data, after[name])
		if changed != (name == "ipv6.yaml") {
			t.Errorf("testdata/golden/%s changed: %v; want only ipv6.yaml changed", name, changed)
		}
	}
	if !bytes.Contains(after["ipv6.yaml"], []byte("--agent-port=9191")) {
		t.Error("the refreshed ipv6.yaml lacks the overlay's change --agent-port=9191")
	}
	if out, err := sb.run(verify, env...); err != nil {
		t.Fatalf("the golden check after the refresh: %v\n%s", err, lastLines(out, 30))
	}
}

// goldens reads every overlay golden file of the repository at repo.
func goldens(t *testing.T, repo string) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repo, "testdata", "golden", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden files under %s: %v", repo, err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}
