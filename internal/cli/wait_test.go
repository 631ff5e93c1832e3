package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The gate's verdicts against the real server and agents are in
// internal/diagnostics/gate; these cover the command's contract: arguments, formats,
// progress on stderr and exit codes.
func TestWaitCommand(t *testing.T) {
	empty := t.TempDir()
	runCLICases(t, []cliCase{
		{"unrendered root times out", []string{"wait", "--root", empty, "--timeout", "50ms"}, 1, []string{"NOT ready after"}, "waiting"},
		{"the verdict names the cause", []string{"wait", "--root", empty, "--timeout", "50ms"}, 1, []string{"not-rendered"}, "for a usable rendered root"},
		{"json", []string{"wait", "--root", empty, "--timeout", "50ms", "-o", "json"}, 1, []string{`"cause": "not-rendered"`}, ""},
		{"takes no args", []string{"wait", "x"}, 2, nil, "takes no arguments"},
		{"bad output", []string{"wait", "-o", "yaml"}, 2, nil, "--output"},
		{"min agents", []string{"wait", "--min-agents", "0"}, 2, nil, "--min-agents"},
		{"timeout", []string{"wait", "--timeout", "0s"}, 2, nil, "--timeout"},
		{"bad target", []string{"wait", "--target", "nohost"}, 2, nil, "--target"},
	})
}

// TestWaitGather: --gather writes the same JSON as --output json into
// wait.json, also for a verdict that is not ready, and nothing else; a
// --gather that cannot be a directory is refused before the wait.
func TestWaitGather(t *testing.T) {
	empty := t.TempDir()
	dir := filepath.Join(t.TempDir(), "bootstrap-control-plane", "konnectivity")
	code, stdout, stderr := runCLI(t, "", "wait", "--root", empty, "--timeout", "50ms", "--gather", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (not ready)\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "NOT ready after") {
		t.Errorf("with --gather, stdout is still the text verdict; got:\n%s", stdout)
	}
	data, err := os.ReadFile(filepath.Join(dir, "wait.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Ready bool   `json:"ready"`
		Cause string `json:"cause"`
	}
	if err := json.Unmarshal(data, &v); err != nil || v.Ready || v.Cause != "not-rendered" {
		t.Errorf("wait.json = %s (%v), want ready false and cause not-rendered", data, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("gather left %d entries, want only wait.json (no temporary files)", len(entries))
	}

	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", "wait", "--root", empty, "--timeout", "10m", "--gather", filepath.Join(file, "dir"))
	if code != 2 || !strings.Contains(stderr, "--gather") {
		t.Errorf("--gather under a file: exit %d, stderr %q; want 2 naming --gather, before any wait", code, stderr)
	}
}
