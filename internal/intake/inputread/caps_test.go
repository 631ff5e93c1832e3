package inputread

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestCapsInTheDocs: docs/commands.md lists every cap of the table as it
// is, and no other row.
func TestCapsInTheDocs(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Input caps\n")
	if !ok {
		t.Fatal(`docs/commands.md has no "## Input caps" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| input ") && !strings.HasPrefix(line, "| ---") {
			rows = append(rows, line)
		}
	}
	var want []string
	for _, k := range caps {
		want = append(want, fmt.Sprintf("| %s | %s | %s |", k.Name, formatCap(k.Cap), k.Readers))
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("docs/commands.md's input caps:\n%s\nwant (internal/intake/inputread's Caps):\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
