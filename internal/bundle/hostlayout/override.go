package hostlayout

import (
	"errors"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
)

// OverrideEgressFile is the egress file as the KubeAPIServerConfig override
// passes it to the kube-apiserver: apiServerArguments' EgressFileArgument,
// a list of exactly one non-empty path, as the kube-apiserver container
// sees it. The error says why the override passes none; check reports it
// as is, and the host readers fall back on the installer's mount.
func OverrideEgressFile(override *yaml.RNode) (string, error) {
	args := override.Field("apiServerArguments")
	if args == nil || args.Value.YNode().Kind != yaml.MappingNode {
		return "", errors.New("apiServerArguments is missing, so the KAS never gets --" + EgressFileArgument + " and does not use the tunnel")
	}
	f := args.Value.Field(EgressFileArgument)
	if f == nil {
		return "", errors.New("apiServerArguments has no " + EgressFileArgument + ", so the KAS does not use the tunnel")
	}
	n := f.Value.YNode()
	if n.Kind != yaml.SequenceNode {
		return "", errors.New("apiServerArguments values are lists of strings; " + EgressFileArgument + " is not a list")
	}
	if len(n.Content) != 1 || n.Content[0].Kind != yaml.ScalarNode || n.Content[0].Value == "" {
		return "", errors.New(EgressFileArgument + " must list exactly one non-empty path")
	}
	return n.Content[0].Value, nil
}

// overrideFileEgressArg is OverrideEgressFile of the override file render
// wrote; ok is false when it passes none or is not a YAML object.
func overrideFileEgressArg(data []byte) (string, bool) {
	if yamlguard.Check(data) != nil {
		return "", false
	}
	n, err := yaml.Parse(string(data))
	if err != nil {
		return "", false
	}
	file, err := OverrideEgressFile(n)
	return file, err == nil
}
