package konnectivitybundle_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/bootstrap-konnectivity/konnectivity-bundle/"

// wingRules are the walls between the parts of the house (CONTRIBUTING.md,
// "Layout"): a package under from never reaches one under to, directly or
// through others. Each rule says why the wall is there.
var wingRules = []struct{ from, to, why string }{
	{"internal/diagnostics/", "internal/writers/", "a diagnostic only reads: status, wait and probe never change the host"},
	{"internal/writers/", "internal/diagnostics/", "what render, certs and teardown do never depends on what a probe saw"},
	{"functions/", "internal/writers/", "a KRM function runs in kustomize too, where no host command exists"},
	{"functions/", "internal/diagnostics/", "a KRM function runs in kustomize too, where no host command exists"},
	{"functions/", "internal/cli/", "a KRM function runs in kustomize too, where no host command exists"},
	{"functions/", "internal/fnrun/", "the functions are what fnrun runs, not the other way round"},
	{"internal/proxyversion/", "internal/", "the version table is the ground floor: everything may read it, it reads nothing of ours"},
	{"internal/bundle/", "internal/rootdir/", "the bundle and its host contract are names and rules: reading or writing a file is rootdir's (the state file's is statefile's)"},
	{"functions/", "internal/rootdir/hosttxn/", "the journaled writer lives with the host writers (internal/writers/certset); internal/cli hands it to the certs function through internal/fnrun/dispatch"},
	{"internal/fnrun/", "internal/writers/", "render builds through fnrun: the certificate writer a function needs is handed in by internal/cli (dispatch.Functions), not imported"},
	{"internal/intake/", "internal/bundle/", "what comes in is read before anything knows the bundle: a root's admin kubeconfig is internal/rootdir/adminkubeconfig's, handed to kuberead by internal/cli"},
	{"internal/intake/", "internal/rootdir/", "intake reads what a user hands over; a file under --root is rootdir's, and its lookup is handed to intake (kuberead.Root)"},
}

// floors are the groups of the house from the top down (CONTRIBUTING.md,
// "Layout"): a package imports packages of its own group and of groups on
// lower floors, never of a group on its own floor or a higher one, so every
// arrow points down. The guides' tests sit on top: they only run commands.
var floors = [][]string{
	{"cmd/", "internal/guidetest/"},
	{"internal/cli/"},
	{"internal/writers/", "internal/diagnostics/"},
	{"internal/fnrun/"},
	{"functions/"},
	{"internal/rootdir/"},
	{"internal/bundle/"},
	{"internal/krm/"},
	{"internal/intake/"},
	{"internal/report/", "internal/proxyversion/"},
}

// TestArrowsPointDown holds floors over the production import graph: each
// package is in one group of a floor, and each import stays in its group
// or goes to a lower floor.
func TestArrowsPointDown(t *testing.T) {
	graph := ownImports(t)
	for pkg, imports := range graph {
		floor, group := floorOf(pkg)
		if group == "" {
			t.Errorf("%s is on no floor: add its group to floors (and to CONTRIBUTING.md, Layout)", pkg)
			continue
		}
		for _, imp := range imports {
			f, g := floorOf(imp)
			if g != group && f <= floor {
				t.Errorf("%s imports %s, an arrow that does not point down (%s is on floor %d, %s on floor %d, counted from the top): hand the value in from above instead", pkg, imp, group, floor, g, f)
			}
		}
	}
}

// floorOf is the floor (0 = top) and group of the package at dir; "" when
// no group holds it.
func floorOf(dir string) (int, string) {
	for i, groups := range floors {
		for _, g := range groups {
			if under(dir, g) {
				return i, g
			}
		}
	}
	return -1, ""
}

// TestWingRules holds wingRules over the import graph of the production
// code (tests may cross: a diagnostic's test renders a root to look at).
func TestWingRules(t *testing.T) {
	graph := ownImports(t)
	for _, r := range wingRules {
		for pkg := range graph {
			if !under(pkg, r.from) {
				continue
			}
			for _, path := range reach(graph, pkg) {
				if to := path[len(path)-1]; under(to, r.to) && !under(to, r.from) {
					t.Errorf("%s reaches %s (%s): %s", pkg, r.to, strings.Join(path, " -> "), r.why)
				}
			}
		}
	}
}

// TestInternalStaysGrouped: a new package joins one of the groups under
// internal/ rather than starting a row of its own.
func TestInternalStaysGrouped(t *testing.T) {
	const most = 14
	entries, err := os.ReadDir("internal")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > most {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("internal/ has %d entries (%s), more than %d: put the new package in the group that matches its job (CONTRIBUTING.md, Layout)", len(entries), strings.Join(names, " "), most)
	}
}

// eachProductionFile calls fn with the path of every production Go file
// (internal, functions and cmd, without tests, testdata or
// internal/testutil), the files every wall test reads.
func eachProductionFile(t *testing.T, fn func(path string) error) {
	t.Helper()
	for _, top := range []string{"internal", "functions", "cmd"} {
		err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && (d.Name() == "testdata" || path == "internal/testutil"):
				return filepath.SkipDir
			case d.IsDir() || filepath.Ext(path) != ".go" || strings.HasSuffix(path, "_test.go"):
				return nil
			}
			return fn(path)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// ownImports maps each production package (a directory, from the
// repository root) to the packages of this module it imports.
func ownImports(t *testing.T) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	eachProductionFile(t, func(path string) error {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.Dir(path)
		graph[pkg] = append(graph[pkg], []string{}...)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if own, ok := strings.CutPrefix(p, module); ok && !slices.Contains(graph[pkg], own) {
				graph[pkg] = append(graph[pkg], own)
			}
		}
		return nil
	})
	if len(graph) < 30 {
		t.Fatalf("found only %d packages; was the walk cut short?", len(graph))
	}
	return graph
}

// reach lists, for every package pkg reaches, one import path from pkg to it.
func reach(graph map[string][]string, pkg string) [][]string {
	seen := map[string]bool{pkg: true}
	var paths [][]string
	queue := [][]string{{pkg}}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		for _, next := range graph[path[len(path)-1]] {
			if seen[next] {
				continue
			}
			seen[next] = true
			p := append(slices.Clone(path), next)
			paths = append(paths, p)
			queue = append(queue, p)
		}
	}
	return paths
}

// under reports whether the package at dir lies in the folder prefix
// ("internal/writers/"), the folder's own package included.
func under(dir, prefix string) bool {
	return strings.HasPrefix(dir+"/", prefix)
}
