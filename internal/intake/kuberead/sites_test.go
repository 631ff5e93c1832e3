package kuberead

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// kubeClientPackages are client-go's packages that build a client of the
// kube-apiserver, or the configuration and transport one needs (its
// credentials). Only this package may import them outside tests: a
// second way to the kube-apiserver would read it without a Bound.
var kubeClientPackages = []string{
	"k8s.io/client-go/dynamic",
	"k8s.io/client-go/kubernetes",
	"k8s.io/client-go/rest",
	"k8s.io/client-go/tools/clientcmd",
	"k8s.io/client-go/transport",
	"k8s.io/client-go/discovery",
	"k8s.io/client-go/metadata",
}

// readerPath is this package's import path; testOnly its constructors that
// only tests may call.
const readerPath = "github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/kuberead"

var testOnly = []string{"FromDynamic"}

// TestConstructionSites parses every Go file of the module that is not a
// test, and fails on any import of a client-go client package outside
// this package and any call of a test-only constructor; it lists the
// construction sites inside this package, so a new one is seen in review.
func TestConstructionSites(t *testing.T) {
	root := tooltest.RepoRoot()
	self := filepath.Join(root, "internal", "intake", "kuberead")
	fset := token.NewFileSet()
	var sites []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // another module (tools/lint)
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		inReader := filepath.Dir(path) == self
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !isClientPackage(p) {
				continue
			}
			if !inReader {
				t.Errorf("%s imports %s: read the kube-apiserver through internal/intake/kuberead's bounded Reader instead", rel, p)
			}
		}
		if inReader {
			sites = append(sites, constructionCalls(t, fset, path, rel)...)
		} else {
			checkTestOnly(t, fset, path, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(sites)
	t.Logf("construction sites of a kube-apiserver client, all in internal/intake/kuberead:\n%s", strings.Join(sites, "\n"))
	if len(sites) == 0 {
		t.Error("no construction site found in internal/intake/kuberead: the test no longer sees how the Reader is built")
	}
}

func isClientPackage(p string) bool {
	for _, c := range kubeClientPackages {
		if p == c || strings.HasPrefix(p, c+"/") {
			return true
		}
	}
	return false
}

// constructionCalls lists the calls in path that build a client, its
// configuration or its HTTP client.
func constructionCalls(t *testing.T, fset *token.FileSet, path, rel string) []string {
	t.Helper()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		name := pkg.Name + "." + sel.Sel.Name
		if builds(name) {
			out = append(out, rel+":"+strconv.Itoa(fset.Position(call.Pos()).Line)+": "+name)
		}
		return true
	})
	return out
}

// builds says a call builds a kube-apiserver client or what it needs.
func builds(name string) bool {
	for _, prefix := range []string{"dynamic.New", "kubernetes.New", "rest.RESTClientFor", "rest.HTTPClientFor", "rest.UnversionedRESTClientFor", "rest.TransportFor", "clientcmd.", "transport.New"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// checkTestOnly fails on a call of a test-only constructor from code that
// is not a test.
func checkTestOnly(t *testing.T, fset *token.FileSet, path, rel string) {
	t.Helper()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == readerPath {
			local = "kuberead"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" {
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == local {
			for _, name := range testOnly {
				if sel.Sel.Name == name {
					t.Errorf("%s:%d uses kuberead.%s, which is for tests only: open the Reader with kuberead.Open", rel, fset.Position(sel.Pos()).Line, name)
				}
			}
		}
		return true
	})
}
