package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneVoicePerFinding: the finding a v0.28 bundle carries (info,
// backend-dial-timeout-unavailable) comes out of check, and of build and
// render with -v, as the same line, with the same severity, once per run;
// -q leaves it out of each, -q -v too, and build and render say it only
// when -v asks (result.SaysInfo: success is quiet).
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
		says  []string                           // the flags that make it say info findings
		out   func(stdout, stderr string) string // where the command says findings
	}{
		{"build", "", []string{"build", "upi"}, []string{"-v"}, func(_, stderr string) string { return stderr }},
		{"check", string(bundle), []string{"check", "-"}, nil, func(stdout, _ string) string { return stdout }},
		{"render", "", []string{"render", "--root", t.TempDir(), "--overlay", "upi", "--dry-run"}, []string{"--verbose"}, func(_, stderr string) string { return stderr }},
	}
	var lines []string
	for _, r := range runs {
		code, stdout, stderr := runCLI(t, r.stdin, append(r.args, r.says...)...)
		said := r.out(stdout, stderr)
		if code != 0 || strings.Count(said, want) != 1 {
			t.Errorf("%s %v: exit %d, said %d time(s) %q\nstdout:\n%s\nstderr:\n%s", r.name, r.says, code, strings.Count(said, want), want, stdout, stderr)
			continue
		}
		for _, l := range strings.Split(said, "\n") {
			if strings.HasPrefix(l, want) {
				lines = append(lines, l)
			}
		}
		quiet := [][]string{{"-q"}, append([]string{"-q"}, r.says...)}
		if r.says != nil {
			quiet = append(quiet, nil) // a build's default
		}
		for _, q := range quiet {
			code, stdout, stderr = runCLI(t, r.stdin, append(r.args, q...)...)
			if code != 0 || strings.Contains(stdout+stderr, "info:") {
				t.Errorf("%s %v: exit %d, still says info\nstdout:\n%s\nstderr:\n%s", r.name, q, code, stdout, stderr)
			}
		}
	}
	for i := 1; i < len(lines); i++ {
		if lines[i] != lines[0] {
			t.Errorf("%s says\n  %s\nwhere %s says\n  %s", runs[i].name, lines[i], runs[0].name, lines[0])
		}
	}
}
