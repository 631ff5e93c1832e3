package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneVoicePerFinding: the finding a v0.28 bundle carries (info,
// backend-dial-timeout-unavailable) comes out of build, check and render
// as the same line, with the same severity, once per run; -q leaves it
// out of each.
func TestOneVoicePerFinding(t *testing.T) {
	bundle, err := os.ReadFile(filepath.Join("..", "..", "testdata", "golden", "upi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const want = "info: [backend-dial-timeout-unavailable] Pod kube-system/konnectivity-server spec.containers[0].args: proxy-server v0.28"
	runs := []struct {
		name  string
		stdin string
		args  []string
		out   func(stdout, stderr string) string // where the command says findings
	}{
		{"build", "", []string{"build", "upi"}, func(_, stderr string) string { return stderr }},
		{"check", string(bundle), []string{"check", "-"}, func(stdout, _ string) string { return stdout }},
		{"render", "", []string{"render", "--root", t.TempDir(), "--overlay", "upi", "--dry-run"}, func(_, stderr string) string { return stderr }},
	}
	var lines []string
	for _, r := range runs {
		code, stdout, stderr := runCLI(t, r.stdin, r.args...)
		said := r.out(stdout, stderr)
		if code != 0 || strings.Count(said, want) != 1 {
			t.Errorf("%s: exit %d, said %d time(s) %q\nstdout:\n%s\nstderr:\n%s", r.name, code, strings.Count(said, want), want, stdout, stderr)
			continue
		}
		for _, l := range strings.Split(said, "\n") {
			if strings.HasPrefix(l, want) {
				lines = append(lines, l)
			}
		}
		code, stdout, stderr = runCLI(t, r.stdin, append(r.args, "-q")...)
		if code != 0 || strings.Contains(stdout+stderr, "info:") {
			t.Errorf("%s -q: exit %d, still says info\nstdout:\n%s\nstderr:\n%s", r.name, code, stdout, stderr)
		}
	}
	for i := 1; i < len(lines); i++ {
		if lines[i] != lines[0] {
			t.Errorf("%s says\n  %s\nwhere %s says\n  %s", runs[i].name, lines[i], runs[0].name, lines[0])
		}
	}
}
