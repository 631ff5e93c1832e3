package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cliPrints are the only functions of this package that print, each with
// what it prints. Everything else a command says is a report worded by the
// package that made it (a WriteText, WriteNotes or WriteFormat method;
// CONTRIBUTING.md, "Layout"), which the command hands to output.Write.
var cliPrints = map[string]string{
	"exitCode":                "a failed command's error, the one place errors are said",
	"unknownCommand":          "an unknown command, a usage error, with cobra's suggestions",
	"CLI.Main":                "an error of a completion request",
	"withCobraStderr":         "that completion's messages could not be caught",
	"cobraMessages":           "cobra's completion messages, each escaped on one line",
	"noEval":                  "the completion script: cobra's, with the lines that evaluated the command line replaced",
	"legacyPlugin":            "an error of the legacy exec plugin call",
	"signals.watch":           "the note a second signal gives: the CLI catches signals",
	"signals.first":           "the note the first signal gives: the CLI catches signals",
	"teardownExit":            "an error that does not decide teardown's exit, said as a warning",
	"buildOptions.Run":        "a bare value: the bundle built",
	"detectIPOptions.Run":     "bare values: the address, and with -v bootstrapip's word for where it came from",
	"proxyVersionOptions.Run": "bare values: a version's name, or every name",
	"buildInfo.WriteText":     "the program's version and revision: the CLI's own, of no package below it",
}

// TestCliWordsNoReport holds the convention: a fmt print call (or
// io.WriteString) in this package's code sits in a function of cliPrints,
// and each of those still prints. It reads calls, not writers: a report
// worded here through a strings.Builder would pass, so review still counts.
func TestCliWordsNoReport(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	printing := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			key := funcKey(fn)
			ast.Inspect(fn, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && isPrint(call) {
					printing[key] = true
					if _, ok := cliPrints[key]; !ok {
						t.Errorf("%s: %s prints; word the report in the package that makes it (a WriteText method) and hand it to output.Write, or add %s to cliPrints saying why cli words it", fset.Position(call.Pos()), key, key)
					}
				}
				return true
			})
		}
	}
	for name := range cliPrints {
		if !printing[name] {
			t.Errorf("cliPrints lists %s, which prints nothing any more: drop it", name)
		}
	}
}

// funcKey is fn's name, after its receiver's type for a method
// ("signals.first").
func funcKey(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// isPrint reports a call of fmt.Print*, fmt.Fprint* or io.WriteString.
func isPrint(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	name := sel.Sel.Name
	switch pkg.Name {
	case "fmt":
		return slices.ContainsFunc([]string{"Print", "Fprint"}, func(p string) bool { return strings.HasPrefix(name, p) })
	case "io":
		return name == "WriteString"
	}
	return false
}
