package yamlguard

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
)

func TestCheck(t *testing.T) {
	bomb, err := os.ReadFile("testdata/alias-bomb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		input string
		limit Limit  // "" = accepted
		want  string // substring of the message
	}{
		{"plain object", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n", "", ""},
		{"small aliases are fine", "a: &x {k: v}\nb: *x\nc: [*x, *x]\n", "", ""},
		{"merge key", "a: &x {k: v}\nb: {<<: *x, j: w}\n", "", ""},
		{"equal keys in two documents", "k: 1\n---\nk: 2\n", "", ""},
		{"equal keys in sibling mappings", "a: {k: 1}\nb: {k: 2}\n", "", ""},
		{"alias bomb", string(bomb), LimitAliases, "aliases expand to more than the alias limit of 1000000 nodes"},
		{"deep nesting", strings.Repeat("[", maxDepth+5) + strings.Repeat("]", maxDepth+5), LimitDepth, "deeper than the depth limit of 200 levels"},
		{"deep through an alias", "a: &d " + strings.Repeat("[", 150) + strings.Repeat("]", 150) + "\nb: " + strings.Repeat("[", 100) + "*d" + strings.Repeat("]", 100), LimitDepth, "alias *d nests deeper than the depth limit of 200"},
		{"alias cycle", "a: &c [x, *c]\n", LimitAliasCycle, "refers to a node that contains it"},
		{"duplicate key", "metadata:\n  name: a\n  name: b\n", LimitDuplicate, `document 1 at metadata: key "name" appears twice (lines 2 and 3)`},
		{"a second kind at the top: joined documents", "kind: Secret\nkind: ConfigMap\n", LimitDuplicate, "line 2: a second \"kind\" in one YAML document (the first is at line 1): two documents joined without `---`"},
		{"a second kind nested: a duplicate key", "spec:\n  kind: a\n  kind: b\n", LimitDuplicate, `key "kind" appears twice`},
		{"duplicate in list item", "items:\n- a: 1\n- b: 1\n  b: 2\n", LimitDuplicate, "at items[1]: key \"b\""},
		{"quoted and plain equal", "spec: {\"1\": a, 1: b}\n", LimitDuplicate, `key "1"`},
		{"duplicate in second document", "k: 1\n---\nk: 1\nk: 2\n", LimitDuplicate, "document 2"},
		{"mapping as key", "spec:\n  ? {a: b}\n  : c\n", LimitComplexKey, "document 1 at spec: the key at line 2 is a mapping; keys must be plain strings"},
		{"sequence as key", "? [a]\n: c\n", LimitComplexKey, "is a sequence"},
		{"too large", strings.Repeat("#", inputread.MaxYAML+1), LimitSize, "larger than the size limit of 8388608 bytes (8 MiB)"},
		{"syntax error", "a: [b\n", limitSyntaxError, "document 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := Check([]byte(tc.input))
			if tc.limit == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ge *Error
			if !errors.As(err, &ge) {
				t.Fatalf("got %v, want a refusal for the %s limit", err, tc.limit)
			}
			if ge.Limit != tc.limit || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %s refusal %q, want %s with %q", ge.Limit, err, tc.limit, tc.want)
			}
			if errors.Is(err, ErrNotYAML) != (tc.limit == limitSyntaxError) {
				t.Fatalf("errors.Is(ErrNotYAML) wrong for %v", err)
			}
		})
	}
}

// A large stream without aliases is bounded by its size only: below the
// size limit it passes however many nodes it has, above it the message
// names the size limit and never the alias limit.
func TestLargeAliasFreeInput(t *testing.T) {
	item := "- {name: n, value: v}\n" // 4 nodes in 22 bytes
	under := strings.Repeat(item, (inputread.MaxYAML-100)/len(item))
	if err := Check([]byte(under)); err != nil {
		t.Fatalf("%d bytes, %d nodes, no aliases: %v", len(under), 4*len(under)/len(item), err)
	}
	over := under + strings.Repeat(item, 10)
	err := Check([]byte(over))
	var ge *Error
	if !errors.As(err, &ge) || ge.Limit != LimitSize || ge.Max != inputread.MaxYAML || strings.Contains(err.Error(), "alias") {
		t.Fatalf("got %v, want the size limit only", err)
	}
}

func TestCheckInput(t *testing.T) {
	bomb, err := os.ReadFile("testdata/alias-bomb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	err = CheckInput("testdata/alias-bomb.yaml", bomb)
	var ge *Error
	if !errors.As(err, &ge) || ge.Limit != LimitAliases || !strings.HasPrefix(err.Error(), "testdata/alias-bomb.yaml: document 1 at data.") {
		t.Fatalf("got %v", err)
	}
	// Syntax is the parser's to report, in its own words.
	if err := CheckInput("stdin", []byte("a: [b\n")); err != nil {
		t.Fatalf("syntax error: got %v", err)
	}
}

// CheckAt names the lines of the file the YAML is embedded in.
func TestCheckAtNamesTheFilesLines(t *testing.T) {
	err := CheckAt([]byte("spec:\n  a: 1\n  a: 2\n"), 10)
	if err == nil || !strings.Contains(err.Error(), `key "a" appears twice (lines 11 and 12)`) {
		t.Fatalf("got %v", err)
	}
}
