package bundlemodel

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// decodeInto decodes a node into a Kubernetes type through JSON, as the API
// server would read it.
func decodeInto(n *yaml.RNode, v any) error {
	var generic any
	if err := n.YNode().Decode(&generic); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	j, err := json.Marshal(generic)
	if err != nil {
		return fmt.Errorf("encode as JSON: %w", err)
	}
	if err := json.Unmarshal(j, v); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}

func stringField(n *yaml.RNode, name string) string {
	f := n.Field(name)
	if f == nil || f.Value.YNode().Kind != yaml.ScalarNode {
		return ""
	}
	return f.Value.YNode().Value
}

func stringMap(n *yaml.RNode, name string) map[string]string {
	out := map[string]string{}
	f := n.Field(name)
	if f == nil || f.Value.YNode().Kind != yaml.MappingNode {
		return out
	}
	c := f.Value.YNode().Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i+1].Kind == yaml.ScalarNode {
			out[c[i].Value] = c[i+1].Value
		}
	}
	return out
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}
