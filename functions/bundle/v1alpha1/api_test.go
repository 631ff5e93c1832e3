package v1alpha1

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAPIDocumentsEveryName: this package is the functions' Go API, so
// every exported name (and method) has a doc line of its own, and a name
// taken from an internal/ package says beside it why it is re-exported.
func TestAPIDocumentsEveryName(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	names := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		internal := internalImports(f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() {
					names++
					if d.Doc == nil {
						t.Errorf("%s: %s has no doc line", file, d.Name.Name)
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					name, doc, value := specParts(d, s)
					if name == "" || !ast.IsExported(name) {
						continue
					}
					names++
					if doc == "" {
						t.Errorf("%s: %s has no doc line of its own", file, name)
					}
					if fromInternal(value, internal) && !strings.Contains(doc+d.Doc.Text(), "re-exported") {
						t.Errorf("%s: %s is taken from an internal/ package without saying beside it why it is re-exported", file, name)
					}
				}
			}
		}
	}
	if names < 20 {
		t.Fatalf("found only %d exported names: the walk is broken", names)
	}
}

// specParts is a spec's name (its first), its own doc (or the
// declaration's, when it declares one name alone) and what it stands for:
// a constant's or variable's value, an alias's type.
func specParts(d *ast.GenDecl, s ast.Spec) (string, string, ast.Node) {
	own := func(doc, comment *ast.CommentGroup) string {
		text := doc.Text() + comment.Text()
		if text == "" && len(d.Specs) == 1 {
			text = d.Doc.Text()
		}
		return text
	}
	switch s := s.(type) {
	case *ast.TypeSpec:
		if !s.Assign.IsValid() {
			return s.Name.Name, own(s.Doc, s.Comment), nil // a type of its own, not a re-export
		}
		return s.Name.Name, own(s.Doc, s.Comment), s.Type
	case *ast.ValueSpec:
		var value ast.Node
		if len(s.Values) > 0 {
			value = s.Values[0]
		}
		return s.Names[0].Name, own(s.Doc, s.Comment), value
	}
	return "", "", nil
}

// internalImports are the local names of f's imports from internal/.
func internalImports(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !strings.Contains(p, "/internal/") {
			continue
		}
		name := filepath.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out[name] = true
	}
	return out
}

// fromInternal says whether n names something of an internal/ package.
func fromInternal(n ast.Node, internal map[string]bool) bool {
	found := false
	if n == nil {
		return false
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := se.X.(*ast.Ident); ok && internal[x.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}
