package v1alpha1

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"
)

// Generate returns the bundle for a defaulted, valid spec, in a fixed order:
// static pod, namespace, daemonset, egress selector, KAS override.
func Generate(s *Spec) ([]*kyaml.RNode, error) {
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

// Resolve decodes, defaults and validates a config.
func Resolve(config []byte, getenv func(string) string) (*Spec, error) {
	cfg, err := Decode(config)
	if err != nil {
		return nil, err
	}
	cfg.Spec.Default(getenv)
	if err := cfg.Spec.Validate(); err != nil {
		return nil, err
	}
	return &cfg.Spec, nil
}

// Processor is the KRM function: it appends the bundle to the items, which for
// a kustomize generator hold only the (local-config) function config.
func Processor(getenv func(string) string) framework.ResourceListProcessor {
	return framework.ResourceListProcessorFunc(func(rl *framework.ResourceList) error {
		config, err := rl.FunctionConfig.MarshalJSON()
		if err != nil {
			return fmt.Errorf("reading function config: %w", err)
		}
		spec, err := Resolve(config, getenv)
		if err != nil {
			return asResults(err)
		}
		nodes, err := Generate(spec)
		if err != nil {
			return err
		}
		rl.Items = append(rl.Items, nodes...)
		return nil
	})
}

// asResults turns field errors into framework results so kustomize and kpt
// show each one with its field path.
func asResults(err error) error {
	fe, ok := err.(FieldErrors)
	if !ok {
		return framework.Results{{Severity: framework.Error, Message: err.Error()}}
	}
	results := make(framework.Results, 0, len(fe))
	for _, e := range fe {
		msg := e.Message
		if e.Fix != "" {
			msg += " (fix: " + e.Fix + ")"
		}
		results = append(results, &framework.Result{
			Severity: framework.Error,
			Message:  msg,
			Field:    &framework.Field{Path: e.Field},
		})
	}
	return results
}

// toNode renders a typed object the way it would be written by hand: no
// status, no null creationTimestamp, keys sorted for byte-stable output.
func toNode(obj any) (*kyaml.RNode, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", obj, err)
	}
	var tree map[string]any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, err
	}
	delete(tree, "status")
	if spec, ok := tree["spec"].(map[string]any); ok && len(spec) == 0 {
		delete(tree, "spec") // a Namespace's empty spec is noise
	}
	dropNullTimestamps(tree)
	out, err := yaml.Marshal(tree)
	if err != nil {
		return nil, err
	}
	return kyaml.Parse(string(out))
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
