// Package bundle is the KonnectivityBundle generator: one resolved config in
// (v1alpha1), the whole bootstrap Konnectivity bundle out. Every value that
// two emitted objects must agree on is derived here from a single field.
package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// Generate returns the bundle for a defaulted, valid spec, in a fixed order:
// static pod, namespace, daemonset, egress selector, KAS override.
func Generate(s *v1alpha1.Spec) ([]*kyaml.RNode, error) {
	if !*s.Enabled {
		return nil, nil
	}
	objects := []any{serverPod(s), agentNamespace(s), agentDaemonSet(s), egressSelector(s), kasOverride(s)}
	nodes := make([]*kyaml.RNode, 0, len(objects))
	for _, obj := range objects {
		n, err := toNode(obj)
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// Processor is the KRM function: it appends the bundle to the items, which for
// a kustomize generator hold only the (local-config) function config. As an
// exec or container function it takes the bootstrap IP and the proxy
// version from the config or the environment; in-process callers hand them
// over as values, the address resolved in in.BootstrapIP and the
// --proxy-version given in in.ProxyVersion.
func Processor(in v1alpha1.Inputs) framework.ResourceListProcessor {
	return framework.ResourceListProcessorFunc(func(rl *framework.ResourceList) error {
		// YAML, not JSON: a key JSON cannot hold (a mapping) then fails in
		// Decode with its field path instead of in the encoder with none.
		config, err := rl.FunctionConfig.String()
		if err != nil {
			return fmt.Errorf("reading function config: %w", err)
		}
		spec, err := v1alpha1.Resolve([]byte(config), in)
		if err != nil {
			return result.FromError(err)
		}
		nodes, err := Generate(spec)
		if err != nil {
			return err
		}
		rl.Items = append(rl.Items, nodes...)
		return nil
	})
}

// toNode renders a typed object the way it would be written by hand: no
// status, no null creationTimestamp, keys sorted for byte-stable output. It
// builds the YAML node tree directly; a text round trip cost a fifth of a
// whole overlay build.
func toNode(obj any) (*kyaml.RNode, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", obj, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree map[string]any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	delete(tree, "status")
	if spec, ok := tree["spec"].(map[string]any); ok && len(spec) == 0 {
		delete(tree, "spec") // a Namespace's empty spec is noise
	}
	dropNullTimestamps(tree)
	return kyaml.NewRNode(yamlNode(tree)), nil
}

// yamlNode converts a JSON value (numbers as json.Number) to a YAML node.
func yamlNode(v any) *kyaml.Node {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		n := &kyaml.Node{Kind: kyaml.MappingNode, Tag: kyaml.NodeTagMap}
		for _, k := range keys {
			n.Content = append(n.Content, scalar(kyaml.NodeTagString, k), yamlNode(t[k]))
		}
		return n
	case []any:
		n := &kyaml.Node{Kind: kyaml.SequenceNode, Tag: kyaml.NodeTagSeq}
		for _, item := range t {
			n.Content = append(n.Content, yamlNode(item))
		}
		return n
	case string:
		return scalar(kyaml.NodeTagString, t)
	case json.Number:
		if _, err := t.Int64(); err == nil {
			return scalar(kyaml.NodeTagInt, t.String())
		}
		return scalar(kyaml.NodeTagFloat, t.String())
	case bool:
		return scalar(kyaml.NodeTagBool, strconv.FormatBool(t))
	default:
		return scalar(kyaml.NodeTagNull, "null")
	}
}

// scalar makes a plain scalar; the YAML encoder quotes a !!str value that
// would read back as another type ("true", "10"), so strings stay strings.
func scalar(tag, value string) *kyaml.Node {
	return &kyaml.Node{Kind: kyaml.ScalarNode, Tag: tag, Value: value}
}

func dropNullTimestamps(v any) {
	switch t := v.(type) {
	case map[string]any:
		if ts, ok := t["creationTimestamp"]; ok && ts == nil {
			delete(t, "creationTimestamp")
		}
		for _, child := range t {
			dropNullTimestamps(child)
		}
	case []any:
		for _, child := range t {
			dropNullTimestamps(child)
		}
	}
}
