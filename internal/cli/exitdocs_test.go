package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// readDoc reads a file of the repository with its Markdown code marks
// dropped, so a document may write `--gather` where --help writes --gather.
func readDoc(t *testing.T, rel string) string {
	t.Helper()
	return strings.ReplaceAll(readDocRaw(t, rel), "`", "")
}

// readDocRaw reads a file of the repository as it is.
func readDocRaw(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// docTable is one Markdown table whose first column is "exit": its header
// cells and its rows' cells, with the line each row is on.
type docTable struct {
	header []string
	rows   [][]string
	lines  []int
}

// exitTables finds the tables of doc whose first header cell is "exit".
func exitTables(doc string) []docTable {
	var tables []docTable
	var cur *docTable
	for i, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "|") {
			cur = nil
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		switch {
		case cur == nil && cells[0] == "exit":
			tables = append(tables, docTable{header: cells})
			cur = &tables[len(tables)-1]
		case cur == nil, strings.HasPrefix(cells[0], "---"):
		default:
			cur.rows = append(cur.rows, cells)
			cur.lines = append(cur.lines, i+1)
		}
	}
	return tables
}

// exitRowFor is exitTable's row of code, or nil.
func exitRowFor(code int) *exitRow {
	for i := range exitTable {
		if exitTable[i].Code == code {
			return &exitTable[i]
		}
	}
	return nil
}

// exitCommandsOf lists the commands row applies to, in exitCommands' order.
func exitCommandsOf(r exitRow) string {
	var cmds []string
	for _, c := range exitCommands {
		if _, ok := r.Help[c]; ok {
			cmds = append(cmds, c)
		}
	}
	return strings.Join(cmds, ", ")
}

// exitSummary is the list README.md gives: "0 success; 1 failure; ...".
func exitSummary() string {
	parts := make([]string, len(exitTable))
	for i, r := range exitTable {
		parts[i] = fmt.Sprintf("%d %s", r.Code, r.Name)
	}
	return strings.Join(parts, "; ")
}

// TestExitCodesInTheDocs: README.md, docs/commands.md and docs/render.md
// say the codes and meanings of exitTable. docs/commands.md holds the
// table itself; README.md lists every code with its name; every row of an
// "exit" table in docs/render.md begins with its code's name, and a table
// headed by a command lists exactly that command's codes.
func TestExitCodesInTheDocs(t *testing.T) {
	cases := []struct {
		doc   string
		check func(t *testing.T, doc string)
	}{
		{"README.md", func(t *testing.T, doc string) {
			if flat := strings.Join(strings.Fields(doc), " "); !strings.Contains(flat, exitSummary()) {
				t.Errorf("README.md does not list the exit codes as the table has them:\n%s", exitSummary())
			}
		}},
		{"docs/commands.md", checkCommandsDocTable},
		{"docs/render.md", checkCommandExitTables},
	}
	for _, tc := range cases {
		t.Run(tc.doc, func(t *testing.T) { tc.check(t, readDoc(t, tc.doc)) })
	}
}

// checkCommandsDocTable: docs/commands.md has exitTable row for row:
// code, name, meaning and the commands it applies to.
func checkCommandsDocTable(t *testing.T, doc string) {
	var want [][]string
	for _, r := range exitTable {
		want = append(want, []string{strconv.Itoa(r.Code), r.Name, r.Meaning, exitCommandsOf(r)})
	}
	for _, tbl := range exitTables(doc) {
		if slices.Equal(tbl.header, []string{"exit", "name", "meaning", "commands"}) {
			if len(tbl.rows) != len(want) {
				t.Errorf("docs/commands.md's exit table has %d rows, want %d (exitTable)", len(tbl.rows), len(want))
			}
			for i := range min(len(tbl.rows), len(want)) {
				if !slices.Equal(tbl.rows[i], want[i]) {
					t.Errorf("line %d: %q, want %q (exitTable)", tbl.lines[i], tbl.rows[i], want[i])
				}
			}
			return
		}
	}
	t.Error("docs/commands.md has no | exit | name | meaning | commands | table")
}

// checkCommandExitTables: each row of an "exit" table begins with its
// code's name, and a table headed by a command lists its codes, no more.
func checkCommandExitTables(t *testing.T, doc string) {
	tables := exitTables(doc)
	if len(tables) < 2 {
		t.Fatalf("found %d exit tables, want render's and teardown's at least", len(tables))
	}
	for _, tbl := range tables {
		var codes []int
		for i, row := range tbl.rows {
			code, err := strconv.Atoi(row[0])
			r := exitRowFor(code)
			if err != nil || r == nil {
				t.Errorf("line %d: exit %q is not in the table", tbl.lines[i], row[0])
				continue
			}
			codes = append(codes, code)
			if !strings.HasPrefix(row[1], r.Name) {
				t.Errorf("line %d: exit %d says %q, want it to begin with %q", tbl.lines[i], code, row[1], r.Name)
			}
		}
		cmd := tbl.header[1]
		if !slices.Contains(exitCommands, cmd) {
			continue
		}
		var want []int
		for _, e := range wantExitEntries(cmd) {
			want = append(want, e.Code)
		}
		if !slices.Equal(codes, want) {
			t.Errorf("the %s table lists exits %v, want %v", cmd, codes, want)
		}
	}
}

// codeBeforeName finds "6 locked" or "6, locked" in prose; the names are
// those of the codes whose numbers changed, which a guide may still give
// with the old number.
var codeBeforeName = regexp.MustCompile(`\b(\d+),? (locked|report not written|API server unreachable)\b`)

// TestNoGuideGivesAnOldCode: no Markdown file of the repository but the
// changelog, which records the old numbers, pairs one of these names with
// another number than the table's.
func TestNoGuideGivesAnOldCode(t *testing.T) {
	want := map[string]int{}
	for _, r := range exitTable {
		want[r.Name] = r.Code
	}
	root := tooltest.RepoRoot()
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "_output"):
			return filepath.SkipDir
		case d.IsDir() || filepath.Ext(path) != ".md" || d.Name() == "CHANGELOG.md":
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		for _, m := range codeBeforeName.FindAllStringSubmatch(strings.Join(strings.Fields(readDoc(t, rel)), " "), -1) {
			found++
			if code, _ := strconv.Atoi(m[1]); code != want[m[2]] {
				t.Errorf("%s: %q, want %d %s", rel, m[0], want[m[2]], m[2])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Error("no guide names a code with its name: the pattern is broken")
	}
}
