package cli

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeCommandCell is the first code span of a row of README's command
// table, whose first word is the command.
var readmeCommandCell = regexp.MustCompile("^\\| `([a-z-]+)[ `]")

// TestREADMEListsEveryCommand: README.md's "Commands" table has a row for
// every command the CLI lists, and none for a command it lacks.
func TestREADMEListsEveryCommand(t *testing.T) {
	data := readDocRaw(t, "README.md")
	_, section, ok := strings.Cut(data, "\n## Commands\n")
	if !ok {
		t.Fatal("README.md has no ## Commands section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var listed []string
	for _, line := range strings.Split(section, "\n") {
		if m := readmeCommandCell.FindStringSubmatch(line); m != nil && !slices.Contains(listed, m[1]) {
			listed = append(listed, m[1])
		}
	}
	var names []string
	for _, cmd := range New(Config{}).commands {
		names = append(names, cmd.Name)
		if !slices.Contains(listed, cmd.Name) {
			t.Errorf("README.md's command table has no row for %s", cmd.Name)
		}
	}
	for _, name := range listed {
		if !slices.Contains(names, name) {
			t.Errorf("README.md's command table lists %s, which the CLI does not have", name)
		}
	}
}

// TestCommandsDocListsTheOtherCommands: docs/commands.md names every
// command outside the shared exit-code table where it says they exit 0, 1
// or 2.
func TestCommandsDocListsTheOtherCommands(t *testing.T) {
	doc := strings.Join(strings.Fields(readDoc(t, "docs/commands.md")), " ")
	var others []string
	for _, cmd := range New(Config{}).commands {
		if !slices.Contains(exitCommands, cmd.Name) {
			others = append(others, cmd.Name)
		}
	}
	want := strings.Join(others[:len(others)-1], ", ") + " and " + others[len(others)-1] + " exit 0 on success"
	if !strings.Contains(doc, want) {
		t.Errorf("docs/commands.md does not say %q", want)
	}
}
