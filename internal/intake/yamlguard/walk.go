package yamlguard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Check refuses data that breaks a limit or has a duplicate or non-scalar
// mapping key. It parses into nodes without expanding aliases (the YAML
// parser kustomize uses), so checking costs what the input's text costs.
func Check(data []byte) error { return CheckAt(data, 1) }

// CheckAt is Check for YAML that starts at line firstLine of the file it is
// embedded in (a literal block of a kustomization): the lines it names are
// that file's.
func CheckAt(data []byte, firstLine int) error {
	if err := CheckSize(int64(len(data))); err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	w := &walker{memo: map[*yaml.Node]expansion{}, lineOffset: firstLine - 1}
	for doc := 1; ; doc++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			wrapped := fmt.Errorf("%w: %v", ErrNotYAML, err)
			return &Error{Limit: limitSyntaxError, Where: fmt.Sprintf("document %d", doc), Message: wrapped.Error(), err: wrapped}
		}
		w.doc = doc
		if err := w.walk(&n, 0); err != nil {
			return err
		}
	}
}

// expansion is a node's size and depth with its aliases expanded.
type expansion struct {
	nodes, depth int64
	busy         bool // being computed: meeting it again is a cycle
}

type walker struct {
	memo       map[*yaml.Node]expansion
	aliasNodes int64    // nodes added by aliases so far, over all documents
	path       []string // keys and indices from the document root
	doc        int
	lineOffset int // added to every line named: where the input starts in its file
}

// walk visits the literal tree once; aliases are measured, never walked.
func (w *walker) walk(n *yaml.Node, depth int64) error {
	if depth > maxDepth {
		return w.fail(LimitDepth, maxDepth, fmt.Sprintf("nesting is deeper than the depth limit of %d levels", maxDepth))
	}
	switch n.Kind {
	case yaml.AliasNode:
		return w.alias(n, depth)
	case yaml.MappingNode:
		return w.mapping(n, depth)
	}
	for i, c := range n.Content {
		if n.Kind == yaml.SequenceNode {
			w.path = append(w.path, "["+strconv.Itoa(i)+"]")
		}
		err := w.walk(c, depth+1)
		if n.Kind == yaml.SequenceNode {
			w.path = w.path[:len(w.path)-1]
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) alias(n *yaml.Node, depth int64) error {
	e, err := w.expand(n.Alias)
	if err != nil {
		return err
	}
	w.aliasNodes += e.nodes
	if w.aliasNodes > maxAliasNodes {
		return w.fail(LimitAliases, maxAliasNodes, fmt.Sprintf("aliases expand to more than the alias limit of %d nodes", maxAliasNodes))
	}
	if depth+e.depth-1 > maxDepth {
		return w.fail(LimitDepth, maxDepth, fmt.Sprintf("alias *%s nests deeper than the depth limit of %d levels", n.Value, maxDepth))
	}
	return nil
}

// mapping refuses keys that readers of this module would resolve
// differently: kyaml keeps the first of two equal keys, JSON conversion the
// last; a mapping or sequence as key has no JSON form at all.
func (w *walker) mapping(n *yaml.Node, depth int64) error {
	seen := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		line := n.Content[i].Line + w.lineOffset
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return w.fail(LimitComplexKey, 0, fmt.Sprintf("the key at line %d is a %s; keys must be plain strings (quote it, or restructure the value)", line, kindName(k.Kind)))
		}
		if first, dup := seen[k.Value]; dup {
			if len(w.path) == 0 && (k.Value == "apiVersion" || k.Value == "kind") {
				return w.fail(LimitDuplicate, 0, JoinedDocuments(k.Value, first, line))
			}
			where := fmt.Sprintf("lines %d and %d", first, line)
			if first == line {
				where = fmt.Sprintf("both on line %d", first)
			}
			return w.fail(LimitDuplicate, 0, fmt.Sprintf("key %q appears twice (%s); readers disagree on which one wins, so remove one", k.Value, where))
		}
		seen[k.Value] = line
		w.path = append(w.path, k.Value)
		err := w.walk(n.Content[i+1], depth+1)
		w.path = w.path[:len(w.path)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

// expand measures n with aliases expanded, memoised so shared anchors are
// measured once and the measuring stays linear in the text.
func (w *walker) expand(n *yaml.Node) (expansion, error) {
	if n == nil {
		return expansion{}, nil
	}
	if e, ok := w.memo[n]; ok {
		if e.busy {
			return e, w.fail(LimitAliasCycle, 0, "an alias refers to a node that contains it, which expands forever")
		}
		return e, nil
	}
	if n.Kind == yaml.AliasNode {
		return w.expand(n.Alias) // an alias is replaced by what it names
	}
	w.memo[n] = expansion{busy: true}
	e := expansion{nodes: 1, depth: 1}
	for _, c := range n.Content {
		ce, err := w.expand(c)
		if err != nil {
			return e, err
		}
		e.nodes += ce.nodes
		e.depth = max(e.depth, ce.depth+1)
		if e.nodes > maxAliasNodes {
			break // already too big: its exact size does not matter
		}
	}
	w.memo[n] = e
	return e, nil
}

func (w *walker) fail(limit Limit, maxValue int64, msg string) error {
	where := fmt.Sprintf("document %d", w.doc)
	p := strings.ReplaceAll(strings.Join(w.path, "."), ".[", "[")
	if p != "" {
		where += " at " + p
	}
	return &Error{Limit: limit, Max: maxValue, Where: where, Path: p, Message: msg}
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	}
	return "node"
}

// JoinedDocuments is the message for a second apiVersion or kind at the top
// of one document: two objects joined without a '---' line, as `cat a.yaml
// b.yaml` makes them, not a key to remove. line is the second one's line.
func JoinedDocuments(key string, first, line int) string {
	return fmt.Sprintf("line %d: a second %q in one YAML document (the first is at line %d): two documents joined without `---`, as `cat a.yaml b.yaml` does (fix: put '---' on its own line before the object that starts near line %d)", line, key, first, line)
}
