package inputread

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// readCalls are the calls that read input whole, open a file for reading,
// or cut a stream short: outside the reader and allowed below, each is an
// input read without a cap, or cut without a word. Keys are "import
// path.Name"; a kustomize filesystem is a field, matched as ".FileSystem.X".
var readCalls = map[string]bool{
	"io.ReadAll": true, "io.LimitReader": true, "io.CopyN": true,
	"io/ioutil.ReadAll": true, "io/ioutil.ReadFile": true,
	"os.ReadFile": true, "os.Open": true, "os.OpenFile": true, "os.Stdin": true,
	"io/fs.ReadFile":       true,
	".FileSystem.ReadFile": true, ".FileSystem.Open": true,
}

// allowed are the production files that may make such a call, each with
// why it is not an input left uncapped: "file call" -> reason.
var allowed = map[string]string{
	"internal/intake/inputread/inputread.go io.ReadAll":     "the reader itself, capped",
	"internal/intake/inputread/inputread.go io.LimitReader": "the reader itself: the cap plus one byte, to tell an input over the cap",
	"internal/intake/inputread/inputread.go os.Open":        "the reader itself",
	"internal/intake/inputread/within.go os.Open":           "the reader itself, its open bounded by a context (a FIFO waits for a writer)",
	"internal/cli/cli.go os.Stdin":                          "the process's standard input handed to commands as IO.Stdin, which they read through this package",
	"internal/cli/completion_stderr.go io.ReadAll":          "cobra's completion messages through our own pipe, not an input: capped by the LimitReader beside it, the rest drained",
	"internal/cli/completion_stderr.go io.LimitReader":      "as above: the cap on cobra's messages",
	"internal/fnrun/kustbuild/build.go io/fs.ReadFile":      "the embedded kustomization tree, compiled into the binary",
	"internal/fnrun/kustbuild/guardfs.go .FileSystem.ReadFile": "the embedded tree, compiled into the binary, and kustomize's own error for a directory; " +
		"every other file is opened and read through Reader",
	"internal/fnrun/kustbuild/guardfs.go .FileSystem.Open":       "opened to be read through Reader",
	"internal/fnrun/kustbuild/patchkeys.go .FileSystem.Open":     "a patch file, opened to be read through Reader",
	"internal/rootdir/hostfs/lock.go os.Open":                    "/proc/locks, the kernel's, to name who holds the root's lock",
	"internal/rootdir/hostfs/lock.go os.ReadFile":                "/proc/PID/cmdline, the kernel's, to name who holds the root's lock",
	"internal/diagnostics/gate/serverlog.go io.ReadAll":          "the end of a server log under --root, opened by hostfs.OpenRegular (a regular file only) and read as a tail on purpose: the newest handshake lines",
	"internal/diagnostics/gate/serverlog.go io.LimitReader":      "as above: the tail's length",
	"internal/diagnostics/hoststatus/health.go io.ReadAll":       "an HTTP response of the server's health port, not user input, bounded by a LimitReader",
	"internal/diagnostics/hoststatus/health.go io.LimitReader":   "as above",
	"internal/diagnostics/egressprobe/confirm.go io.ReadAll":     "an HTTP response through the tunnel, not user input: its first bytes, for a message",
	"internal/diagnostics/egressprobe/confirm.go io.LimitReader": "as above",
	"internal/diagnostics/egressprobe/dialer.go io.LimitReader":  "an HTTP CONNECT response's header, held to net/http's header limit",
	"internal/diagnostics/egressprobe/http.go io.LimitReader":    "an HTTP response through the tunnel, not user input: drained or its first bytes for a message",
	"internal/diagnostics/egressprobe/http.go io.ReadAll":        "as above",
}

// TestEveryInputGoesThroughTheReader fails when a production file of the
// module reads input whole, opens a file or cuts a stream outside this
// package and the allowed list, and when an allowed entry no longer
// matches anything (so the list stays true).
func TestEveryInputGoesThroughTheReader(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	seen := map[string]bool{}
	var bad []string
	for _, top := range []string{"internal", "functions", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel == "internal/testutil" || d.Name() == "testdata" {
					return filepath.SkipDir // helpers and fixtures of tests only
				}
				return nil
			}
			if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
				return nil
			}
			for _, c := range readCallsIn(t, path) {
				key := rel + " " + c.call
				seen[key] = true
				if _, ok := allowed[key]; !ok {
					bad = append(bad, rel+":"+strconv.Itoa(c.line)+": "+c.call)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s reads input outside internal/intake/inputread: read it with inputread.Read, File or Reader and a Kind from its table, or add it to allowed with the reason it is not an uncapped input", b)
	}
	var stale []string
	for k := range allowed {
		if !seen[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(stale)
	for _, k := range stale {
		t.Errorf("allowed entry %q matches no call any more: remove it", k)
	}
}

type readCall struct {
	call string
	line int
}

// readCallsIn parses one file and returns its uses of readCalls.
func readCallsIn(t *testing.T, path string) []readCall {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{} // local name -> import path
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = p
	}
	var out []readCall
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		var key string
		switch x := sel.X.(type) {
		case *ast.Ident:
			if p, ok := imports[x.Name]; ok {
				key = p + "." + sel.Sel.Name
			}
		case *ast.SelectorExpr:
			key = "." + x.Sel.Name + "." + sel.Sel.Name
		}
		if readCalls[key] {
			out = append(out, readCall{key, fset.Position(sel.Pos()).Line})
		}
		return true
	})
	return out
}
