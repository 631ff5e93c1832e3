package hoststatus

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestEveryCheckIsANamedConstant: status makes every check through
// newCheck with one of the CheckName constants, and CheckNames lists each
// constant once, so holding the gate's table of causes to CheckNames
// (internal/diagnostics/gate) holds it to every check status can report. The source is
// read, since a literal string would convert to CheckName silently.
func TestEveryCheckIsANamedConstant(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{} // constant -> the check's name
	used := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") }) {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				if typ, ok := n.Type.(*ast.Ident); ok && typ.Name == "CheckName" {
					for i, id := range n.Names {
						lit, _ := n.Values[i].(*ast.BasicLit)
						if lit == nil {
							t.Errorf("%s: %s is not a string literal", fset.Position(id.Pos()), id.Name)
							continue
						}
						consts[id.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			case *ast.CallExpr:
				if fn, ok := n.Fun.(*ast.Ident); ok && fn.Name == "newCheck" {
					arg, ok := n.Args[0].(*ast.Ident)
					if !ok {
						t.Errorf("%s: newCheck's name is not a CheckName constant", fset.Position(n.Pos()))
						return true
					}
					used[arg.Name] = true
				}
			}
			return true
		})
	}
	if len(used) == 0 || len(consts) == 0 {
		t.Fatalf("found %d checks made and %d constants: the source was not read", len(used), len(consts))
	}
	var listed []string
	for _, c := range CheckNames {
		listed = append(listed, string(c))
	}
	for id := range used {
		if _, ok := consts[id]; !ok {
			t.Errorf("newCheck(%s, ...): %s is not a CheckName constant", id, id)
		}
	}
	for id, name := range consts {
		if !used[id] {
			t.Errorf("%s (%q) is made by no newCheck call: remove it", id, name)
		}
		if n := count(listed, name); n != 1 {
			t.Errorf("%s (%q) is in CheckNames %d times, want once", id, name, n)
		}
	}
	if len(listed) != len(consts) {
		t.Errorf("CheckNames has %d names, the constants are %d", len(listed), len(consts))
	}
}

func count(names []string, name string) int {
	n := 0
	for _, s := range names {
		if s == name {
			n++
		}
	}
	return n
}
