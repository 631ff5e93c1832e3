package guidetest

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// allDocs are README.md and every document under docs/, by their paths
// from the top of the repository.
func allDocs(t *testing.T) []string {
	t.Helper()
	found, err := filepath.Glob(filepath.Join(tooltest.RepoRoot(), "docs", "*.md"))
	if err != nil || len(found) == 0 {
		t.Fatalf("no docs/*.md found: %v", err)
	}
	docs := []string{"README.md"}
	for _, f := range found {
		docs = append(docs, filepath.Join("docs", filepath.Base(f)))
	}
	return docs
}

// ranBy names the test that runs a document's sh blocks, "" for none.
func ranBy(doc string) string {
	if slices.ContainsFunc(guides, func(g guide) bool { return g.doc == doc }) {
		return "TestGuidesRun"
	}
	if doc == "docs/upi.md" {
		return "TestUPIGuideRuns"
	}
	return ""
}

// TestEveryShellCommandRunsOrSaysWhy: every shell command in README.md and
// docs/, fenced or indented, is in an sh block a test runs as written
// (TestGuidesRun, TestUPIGuideRuns, TestCIScript), or carries a skip mark
// saying why it cannot run here. An indented command, which names no
// language, must be fenced; a bash block is not run, so commands are sh.
func TestEveryShellCommandRunsOrSaysWhy(t *testing.T) {
	commands := 0
	for _, doc := range allDocs(t) {
		for _, b := range docBlocks(t, doc) {
			if !IsCommands(b) {
				continue
			}
			commands++
			switch {
			case b.Skip != "":
			case b.Indented:
				t.Errorf("%s:%d: indented commands: fence them as ```sh so a test runs them, or mark why not (<!-- guidetest: skip: REASON -->)", doc, b.Line)
			case b.Lang != "sh":
				t.Errorf("%s:%d: a %s block is never run: fence commands as sh, or mark why not", doc, b.Line, b.Lang)
			case ranBy(doc) == "":
				t.Errorf("%s:%d: no test runs %s's sh blocks: add it to guides (guides_test.go), or mark why not", doc, b.Line, doc)
			}
		}
	}
	if commands < 20 {
		t.Errorf("found only %d command blocks in the docs; IsCommands is broken", commands)
	}
}
