package guidetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// ciScript is the one sh block of docs/ci.md.
func ciScript(t *testing.T) Block {
	t.Helper()
	bs := Runnable(Blocks(readGuide(t, "ci.md")))
	if len(bs) != 1 {
		t.Fatalf("docs/ci.md has %d sh blocks, want exactly the one script", len(bs))
	}
	return bs[0]
}

// TestCIScript runs the CI script on an unchanged copy (it must pass and
// leave the comment empty) and on a copy whose upi overlay drifted (it must
// fail and show the change as markdown, and nothing of the other overlays).
func TestCIScript(t *testing.T) {
	b := ciScript(t)
	t.Run("goldens match", func(t *testing.T) {
		sb := newSandbox(t, "konnectivity-bundle")
		out, err := sb.run(script("ci.md", []Block{b}))
		if err != nil {
			t.Fatalf("the CI script failed on an unchanged repository: %v\n%s", err, lastLines(out, 40))
		}
		md, err := os.ReadFile(filepath.Join(sb.repo, "_output", "bundle-diff.md"))
		if err != nil {
			t.Fatal(err)
		}
		if len(md) != 0 {
			t.Errorf("the comment of an unchanged repository is not empty:\n%s", md)
		}
	})
	t.Run("an overlay drifted", func(t *testing.T) {
		sb := newSandbox(t, "konnectivity-bundle")
		cfg := filepath.Join(sb.repo, "overlays", "upi", "config", "config-patch.yaml")
		data, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		drifted := strings.Replace(string(data), "agentPort: 9091", "agentPort: 9191", 1)
		if drifted == string(data) {
			t.Fatalf("%s no longer sets agentPort: 9091; update the test's drift", cfg)
		}
		if err := os.WriteFile(cfg, []byte(drifted), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := sb.run(script("ci.md", []Block{b}))
		if err == nil {
			t.Fatalf("the CI script passed with a drifted overlay:\n%s", out)
		}
		md, err := os.ReadFile(filepath.Join(sb.repo, "_output", "bundle-diff.md"))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(md), "### Bundle diff"); n != 1 || strings.Contains(string(md), "No differences.") {
			t.Errorf("the comment has %d sections, want only the drifted overlay's:\n%s", n, md)
		}
		for _, want := range []string{
			"| ~ | `spec.containers[konnectivity-server].args[--agent-port]` | `--agent-port=9091` | `--agent-port=9191` |",
			"| ~ | `spec.template.spec.containers[konnectivity-agent].args[--proxy-server-port]` | `--proxy-server-port=9091` | `--proxy-server-port=9191` |",
			"review the diff above, then run make golden",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, lastLines(out, 40))
			}
		}
	})
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
	for _, b := range Blocks(readGuide(t, "ci.md")) {
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
