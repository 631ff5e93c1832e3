package kustbuild

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// pluginPathKeys are the fields of kustomize's builtin plugin configs (and
// of an exec plugin's) that its plugins read through the same loader as a
// kustomization's paths: PatchTransformer's and ReplacementTransformer's
// path, ConfigMapGenerator's and SecretGenerator's files, envs and env,
// ValueAddTransformer's targetFilePath, an exec plugin's argsFromFile and
// helm's values files. A URL under any of them is downloaded.
var pluginPathKeys = map[string]bool{
	"path": true, "files": true, "envs": true, "env": true, "targetFilePath": true,
	"argsFromFile": true, "valuesFile": true, "additionalValuesFiles": true,
}

// helmKind is the builtin plugin that runs helm.
const helmKind = "HelmChartInflationGenerator"

// functionAnnotations are the annotations that make kustomize run a
// config as a KRM function: a program (exec), a container image
// (container, which may pull it), or whatever a later kustomize adds
// there. The legacy name is still read.
var functionAnnotations = []string{"config.kubernetes.io/function", "config.k8s.io/function"}

// functionWhy is what kustomize does with a function config that is not
// ours: ours run in-process (fnFS), never as programs.
const functionWhy = "a KRM function of another kind, which kustomize runs as a program or a container " +
	"(konnectivity-bundle runs only its own functions, in-process)"

// pluginRefs are the entries of a plugin config (listed under field of
// file, inline or in a file of its own) that kustomize would fetch or run
// helm for.
func pluginRefs(file, field string, config *yaml.RNode) []RemoteRef {
	where := fmt.Sprintf("%s (a %s config)", field, config.GetKind())
	if config.GetKind() == helmKind {
		return []RemoteRef{{File: file, Field: where, Why: helmWhy}}
	}
	if !isOurConfig(config) {
		for _, a := range functionAnnotations {
			if _, ok := config.GetAnnotations()[a]; ok {
				return []RemoteRef{{File: file, Field: where + " " + a, Why: functionWhy}}
			}
		}
	}
	var out []RemoteRef
	var visit func(n *yaml.Node, path string)
	visit = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				key, value := n.Content[i].Value, n.Content[i+1]
				if pluginPathKeys[key] {
					out = append(out, pluginValueRefs(file, where+" "+path+key, value)...)
				}
				visit(value, path+key+".")
			}
		case yaml.SequenceNode:
			for i, item := range n.Content {
				visit(item, fmt.Sprintf("%s[%d].", trimDot(path), i))
			}
		case yaml.AliasNode:
			visit(n.Alias, path)
		}
	}
	visit(config.YNode(), "")
	return out
}

// pluginValueRefs judges a path field's value: one path, or a list of them.
func pluginValueRefs(file, field string, value *yaml.Node) []RemoteRef {
	values := []*yaml.Node{value}
	if value.Kind == yaml.SequenceNode {
		values = value.Content
	}
	var out []RemoteRef
	for _, v := range values {
		if v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		if v.Kind != yaml.ScalarNode {
			continue
		}
		if why := remoteEntry(field, v.Value); why != "" {
			out = append(out, RemoteRef{File: file, Field: field, Entry: v.Value, Why: why})
		}
	}
	return out
}

func trimDot(path string) string {
	if len(path) > 0 && path[len(path)-1] == '.' {
		return path[:len(path)-1]
	}
	return path
}
