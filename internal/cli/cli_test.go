package cli

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestOverviewListsEveryCommand: the overview names every command New
// builds, once, in New's order, which is alphabetical, and `help NAME`
// answers for each with its one-line summary.
func TestOverviewListsEveryCommand(t *testing.T) {
	c := New(Config{})
	var names []string
	for _, cmd := range c.commands {
		names = append(names, cmd.Name)
	}
	if !slices.IsSorted(names) {
		t.Errorf("New lists the commands %v; keep them alphabetical, the order help prints", names)
	}
	code, stdout, _ := runProgram(t, c, nil, "--help")
	if code != 0 {
		t.Fatalf("--help: exit %d", code)
	}
	_, list, ok := strings.Cut(stdout, "Commands:\n")
	if !ok {
		t.Fatalf("--help has no command list:\n%s", stdout)
	}
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z-]+) `).FindAllStringSubmatch(list, -1) {
		listed = append(listed, m[1])
	}
	if !slices.Equal(listed, names) {
		t.Errorf("--help lists %v, want %v", listed, names)
	}
	for _, cmd := range c.commands {
		code, stdout, stderr := runProgram(t, c, nil, "help", cmd.Name)
		if code != 0 || !strings.HasPrefix(stdout, cmd.Short+"\n") {
			t.Errorf("help %s: exit %d, stdout %q, stderr %q; want 0 and the summary %q", cmd.Name, code, stdout, stderr, cmd.Short)
		}
	}
}

// TestVersionComesFromConfig: the version cmd/konnectivity-bundle was
// stamped with reaches `version` through Config, not package state.
func TestVersionComesFromConfig(t *testing.T) {
	for _, v := range []string{"v1.2.3", "v0.0.0-20261122210243-4f7fd453f060+dirty"} {
		code, stdout, stderr := runProgram(t, New(Config{Version: v}), nil, "version")
		if want := ProgramName + " " + v + "\n"; code != 0 || stdout != want {
			t.Errorf("version with Config.Version %q: exit %d, stdout %q, stderr %q; want 0 and %q", v, code, stdout, stderr, want)
		}
	}
}
