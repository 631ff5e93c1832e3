package konnectivitybundle_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The tunnel's address has one reader (CONTRIBUTING.md, beside the walls): text
// becomes an address in internal/bundle/bootstrapip alone, and the agents'
// --proxy-server-host is read out of their arguments by the bundle model
// alone (bundlemodel.Tunnel); everything else takes the typed values.
const (
	addressParser = "internal/bundle/bootstrapip"
	hostReader    = "internal/bundle/bundlemodel"
	hostFlag      = "proxy-server-host"
)

// hostFlagNamers may spell the flag's bare name besides its reader: the
// version table, which lists every flag of every binary (and tells an
// agent's help text by it).
var hostFlagNamers = []string{hostReader, "internal/proxyversion"}

// parsers are the standard library's readers of an address from text, by
// import path; a name ending in * stands for every name with that prefix.
var parsers = map[string][]string{
	"net":       {"ParseIP", "ParseCIDR", "ResolveIPAddr", "ResolveTCPAddr", "ResolveUDPAddr"},
	"net/netip": {"Parse*", "MustParse*"},
}

// TestOneAddressReader fails on every address parsed, and every bare
// --proxy-server-host, outside their one reader in production code. It
// reads the syntax tree, so a comment or a message naming the flag (or
// net.ParseIP) does not count.
func TestOneAddressReader(t *testing.T) {
	files := 0
	eachProductionFile(t, func(path string) error {
		files++
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, problem := range addressReads(fset, f, filepath.ToSlash(filepath.Dir(path))) {
			t.Error(problem)
		}
		return nil
	})
	if files < 200 {
		t.Fatalf("read only %d files; was the walk cut short?", files)
	}
}

// TestAddressReadsSeesThrough is the wall test's control: it finds a parse
// under any import name and the bare flag as any argument, and passes
// comments, messages, other packages' Parse and the reader's own package.
func TestAddressReadsSeesThrough(t *testing.T) {
	cases := []struct {
		name, pkg, src string
		want           int
	}{
		{"net.ParseIP", "internal/diagnostics/x", `import "net"; var _ = net.ParseIP("10.0.0.1")`, 1},
		{"netip under another name", "functions/check", `import ip "net/netip"; func f(s string) { ip.MustParseAddr(s); ip.ParsePrefix(s) }`, 2},
		{"net.ParseCIDR", "internal/bundle/netreq", `import "net"; func f(s string) { net.ParseCIDR(s) }`, 1},
		{"the flag read from arguments", "internal/diagnostics/hoststatus", `func f(fl interface{ Lookup(string) string }) { fl.Lookup("proxy-server-host") }`, 1},
		{"the flag in a constant", "functions/check", `const name = "proxy-server-host"`, 1},
		{"bootstrapip parses", addressParser, `import "net/netip"; func f(s string) { netip.ParseAddr(s) }`, 0},
		{"bundlemodel reads the flag", hostReader, `const hostFlag = "proxy-server-host"`, 0},
		{"comments and messages", "functions/check", `// net.ParseIP("x") and --proxy-server-host
import "fmt"; var _ = fmt.Sprintf("--proxy-server-host=%s is not net.ParseIP-able", "x")`, 0},
		{"another package's Parse", "internal/x", `import "net/url"; var _, _ = url.Parse("x")`, 0},
		{"a field named like the function", "internal/x", `type T struct{ ParseIP func() }; func f(net T) { net.ParseIP() }`, 0},
		{"netip types and constructors", "internal/x", `import "net/netip"; var _ = netip.PrefixFrom(netip.IPv4Unspecified(), 0)`, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "x.go", "package x\n"+tc.src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			if got := addressReads(fset, f, tc.pkg); len(got) != tc.want {
				t.Errorf("found %d (%q), want %d", len(got), got, tc.want)
			}
		})
	}
}

// addressReads lists what file f of package pkg (its directory from the
// repository root) parses as an address, or reads as --proxy-server-host,
// outside the one reader.
func addressReads(fset *token.FileSet, f *ast.File, pkg string) []string {
	imported := map[string]string{} // local name -> import path, for parsers
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := parsers[p]; !ok {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imported[name] = p
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			x, _ := n.X.(*ast.Ident)
			if x == nil || pkg == addressParser {
				break
			}
			if path, ok := imported[x.Name]; ok && isParser(path, n.Sel.Name) {
				out = append(out, fmt.Sprintf("%s: %s.%s parses an address: take it from bootstrapip (ParseAddr, ParsePrefix) or, for the tunnel's, from bundlemodel.Tunnel",
					fset.Position(n.Pos()), path, n.Sel.Name))
			}
		case *ast.BasicLit:
			if s, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && s == hostFlag && !slices.Contains(hostFlagNamers, pkg) {
				out = append(out, fmt.Sprintf("%s: %q read outside %s: take bundlemodel.Tunnel (Host, Addr, HostField, Dials)",
					fset.Position(n.Pos()), hostFlag, hostReader))
			}
		}
		return true
	})
	return out
}

// isParser reports whether name, of the package at path, reads an address.
func isParser(path, name string) bool {
	for _, p := range parsers[path] {
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(name, prefix) || p == name {
			return true
		}
	}
	return false
}
