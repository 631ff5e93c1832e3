package check

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// maxExpandedNodes bounds the YAML nodes a stream may expand to through
// aliases. kyaml expands every alias, so a few lines of nested aliases
// ("billion laughs") would otherwise take minutes and gigabytes.
const maxExpandedNodes = 1_000_000

// checkExpansion refuses streams whose aliases expand beyond maxExpandedNodes.
func checkExpansion(stream []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(stream))
	total := 0
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("parse YAML stream: %w", err)
		}
		total += expandedSize(&doc, map[*yaml.Node]int{}, 0)
		if total > maxExpandedNodes {
			return fmt.Errorf("parse YAML stream: aliases expand to more than %d nodes", maxExpandedNodes)
		}
	}
}

// expandedSize counts n's nodes with aliases expanded, memoised per node so
// the count itself stays linear; depth stops alias cycles.
func expandedSize(n *yaml.Node, memo map[*yaml.Node]int, depth int) int {
	if n == nil || depth > 1000 {
		return maxExpandedNodes + 1
	}
	if s, ok := memo[n]; ok {
		return s
	}
	size := 1
	if n.Kind == yaml.AliasNode {
		size += expandedSize(n.Alias, memo, depth+1)
	}
	for _, c := range n.Content {
		size += expandedSize(c, memo, depth+1)
		if size > maxExpandedNodes {
			break
		}
	}
	memo[n] = size
	return size
}
