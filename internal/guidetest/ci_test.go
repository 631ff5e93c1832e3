package guidetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"

	"sigs.k8s.io/yaml"
)

// ciScriptSection is the section of docs/ci.md that holds the CI script.
const ciScriptSection = "The script"

// isCIScript picks the script among docs/ci.md's blocks: TestCIScript runs
// it, TestGuidesRun the rest.
func isCIScript(b Block) bool { return b.Section == ciScriptSection }

// ciScript is the one sh block of docs/ci.md's script section.
func ciScript(t *testing.T) Block {
	t.Helper()
	var bs []Block
	for _, b := range Runnable(guideBlocks(t, "ci.md")) {
		if isCIScript(b) {
			bs = append(bs, b)
		}
	}
	if len(bs) != 1 {
		t.Fatalf("docs/ci.md has %d sh blocks under %q, want exactly the one script", len(bs), ciScriptSection)
	}
	return bs[0]
}

// ciShells are the shells the script must behave the same under: plain
// bash, and GitHub Actions' shell: bash, which is bash -eo pipefail.
var ciShells = []struct{ name, prefix string }{
	{"plain bash", ""},
	{"bash -eo pipefail", "set -eo pipefail\n"},
}

// TestCIScript runs the CI script, under each shell, on an unchanged copy
// (exit 0, empty comment), on a copy whose upi overlay drifted (exit 1, the
// change as markdown and nothing of the other overlays) and on a copy whose
// upi overlay does not build (exit 2, a comment and a message saying so,
// and no advice to run make golden).
func TestCIScript(t *testing.T) {
	b := ciScript(t)
	scenarios := []struct {
		name   string
		change func(t *testing.T, repo string)
		code   int
		check  func(t *testing.T, out, md string)
	}{
		{"goldens match", func(*testing.T, string) {}, 0, func(t *testing.T, out, md string) {
			if md != "" {
				t.Errorf("the comment of an unchanged repository is not empty:\n%s", md)
			}
		}},
		{"an overlay drifted", func(t *testing.T, repo string) {
			tooltest.EditFile(t, filepath.Join(repo, "overlays", "upi", "config", "config-patch.yaml"), "agentPort: 9091", "agentPort: 9191")
		}, 1, func(t *testing.T, out, md string) {
			if n := strings.Count(md, "### Bundle diff"); n != 1 || strings.Contains(md, "No differences.") {
				t.Errorf("the comment has %d sections, want only the drifted overlay's:\n%s", n, md)
			}
			for _, want := range []string{
				"| ~ | `spec.containers[konnectivity-server].args[--agent-port]` | `--agent-port=9091` | `--agent-port=9191` |",
				"| ~ | `spec.template.spec.containers[konnectivity-agent].args[--proxy-server-port]` | `--proxy-server-port=9091` | `--proxy-server-port=9191` |",
				"drifted from testdata/golden in: upi: review the diff above, then refresh each",
				"  make golden-overlay OVERLAY=upi\n",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, lastLines(out, 40))
				}
			}
		}},
		{"an overlay does not build", func(t *testing.T, repo string) {
			tooltest.EditFile(t, filepath.Join(repo, "overlays", "upi", "kustomization.yaml"), "nodeSelector:", "nodeSelecter:")
		}, 2, func(t *testing.T, out, md string) {
			for _, want := range []string{"nodeSelecter: unknown field", "overlays that failed to build, check or diff: upi: fix the errors above"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, lastLines(out, 40))
				}
			}
			if strings.Contains(out, "run make golden") || strings.Contains(out, "removed") {
				t.Errorf("a broken overlay is reported as drift:\n%s", lastLines(out, 40))
			}
			if !strings.Contains(md, "did not build, check or diff: upi.") {
				t.Errorf("the comment does not say the overlay is broken:\n%s", md)
			}
		}},
	}
	for _, sh := range ciShells {
		for _, sc := range scenarios {
			t.Run(sh.name+"/"+sc.name, func(t *testing.T) {
				sb := newSandbox(t, "konnectivity-bundle")
				sc.change(t, sb.repo)
				out, err := sb.run(sh.prefix + b.Body)
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if code != sc.code {
					t.Fatalf("exit %d, want %d:\n%s", code, sc.code, lastLines(out, 40))
				}
				md, err := os.ReadFile(filepath.Join(sb.repo, "_output", "bundle-diff.md"))
				if err != nil {
					t.Fatal(err)
				}
				sc.check(t, out, string(md))
			})
		}
	}
}

// TestCIJobRunsTheScript: the example job's run step is the tested script.
func TestCIJobRunsTheScript(t *testing.T) {
	want := ciScript(t).Body
	var job struct {
		Jobs map[string]struct {
			Steps []struct {
				Name string `json:"name"`
				Run  string `json:"run"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	found := false
	for _, b := range guideBlocks(t, "ci.md") {
		if b.Lang != "yaml" {
			continue
		}
		if err := yaml.Unmarshal([]byte(b.Body), &job); err != nil {
			t.Fatalf("docs/ci.md:%d: the job is not valid YAML: %v", b.Line, err)
		}
		for _, j := range job.Jobs {
			for _, s := range j.Steps {
				if strings.Contains(s.Run, "konnectivity-bundle diff") {
					found = true
					if s.Run != want {
						t.Errorf("step %q runs a script that differs from the tested sh block:\n%s\nwant:\n%s", s.Name, s.Run, want)
					}
				}
			}
		}
	}
	if !found {
		t.Fatal("docs/ci.md has no job step running konnectivity-bundle diff")
	}
}

// TestMakeDiffExitsAsItsHelpSays: make diff on a drifted overlay exits with
// the status its help line names, and says what drifted.
func TestMakeDiffExitsAsItsHelpSays(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skipf("skipping: make is not installed: %v", err)
	}
	sb := newSandbox(t, "konnectivity-bundle")
	help, err := sb.run("make -s help")
	if err != nil {
		t.Fatalf("make help: %v\n%s", err, help)
	}
	if !strings.Contains(help, "fails if any drifted or broke (make exits 2, as for any failed target)") {
		t.Fatalf("make help no longer says how make diff exits; update this test:\n%s", help)
	}
	tooltest.EditFile(t, filepath.Join(sb.repo, "overlays", "upi", "config", "config-patch.yaml"), "agentPort: 9091", "agentPort: 9191")
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	out, err := sb.run("make -s diff GO="+goBin, "GOCACHE="+goEnv(t, "GOCACHE"), "GOPATH="+goEnv(t, "GOPATH"), "GOFLAGS=-buildvcs=false")
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 {
		t.Fatalf("make diff with a drifted overlay: %v, want exit 2\n%s", err, lastLines(out, 20))
	}
	if !strings.Contains(out, "--agent-port=9191") || !strings.Contains(out, "make diff: an overlay drifted from its golden file") ||
		!strings.Contains(out, "make golden-overlay OVERLAY=upi") {
		t.Errorf("make diff does not show the drift:\n%s", lastLines(out, 20))
	}
}

func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}
