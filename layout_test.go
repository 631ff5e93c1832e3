package konnectivitybundle_test

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLayoutListsTheTree: CONTRIBUTING.md's layout names every top-level
// directory, every package under internal/ and functions/ and every guide
// in docs/, and each line names something that exists, so the list cannot
// go stale in either direction.
func TestLayoutListsTheTree(t *testing.T) {
	listed := layoutPaths(t)
	if len(listed) < 20 {
		t.Fatalf("CONTRIBUTING.md: found only %d layout lines (%v); is the ``` block under ## Layout intact?", len(listed), listed)
	}
	for _, p := range listed {
		info, err := os.Stat(strings.TrimSuffix(p, "/"))
		switch {
		case err != nil:
			t.Errorf("CONTRIBUTING.md lists %s, which does not exist: remove the line", p)
		case strings.HasSuffix(p, "/") != info.IsDir():
			t.Errorf("CONTRIBUTING.md lists %s: directories end in /, files do not", p)
		}
	}
	for _, want := range treePaths(t) {
		if !slices.Contains(listed, want) {
			t.Errorf("CONTRIBUTING.md's layout has no line for %s: add one", want)
		}
	}
}

// layoutPaths are the first words of the unindented lines of the fenced
// block under "## Layout" (indented lines continue the one above).
func layoutPaths(t *testing.T) []string {
	t.Helper()
	doc, err := os.ReadFile("CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := bytes.Cut(doc, []byte("\n## Layout\n"))
	if !ok {
		t.Fatal("CONTRIBUTING.md has no ## Layout section")
	}
	var paths []string
	fence := 0
	for sc := bufio.NewScanner(bytes.NewReader(section)); sc.Scan() && fence < 2; {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			fence++
		case fence == 1 && line != "" && line[0] != ' ':
			paths = append(paths, strings.Fields(line)[0])
		}
	}
	return paths
}

// treePaths is what the layout must name: top-level directories (not the
// ones .gitignore hides, nor .git), the directories holding Go files under
// internal/ and functions/, and the guides in docs/.
func treePaths(t *testing.T) []string {
	t.Helper()
	ignored := []string{".git", "bin", "_output", "plugins"}
	var want []string
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !slices.Contains(ignored, e.Name()) {
			want = append(want, e.Name()+"/")
		}
	}
	for _, top := range []string{"internal", "functions"} {
		err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".go" {
				return err
			}
			if dir := filepath.Dir(path) + "/"; !slices.Contains(want, dir) {
				want = append(want, dir)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	guides, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append(want, guides...)
}
