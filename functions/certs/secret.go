package certs

import (
	"encoding/base64"
	"fmt"
	"path"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// secretKeys are the Secret's data keys in the order they are written.
var secretKeys = []string{"ca.crt", "tls.crt", "tls.key"}

// AgentSecretNode is the Secret konnectivity-agent-certs (tls.crt, tls.key,
// ca.crt) as a node, with the bundle labels and the placement/host-path
// annotations of docs/bundle-shape.md; callers hold the bundle as parsed objects.
func AgentSecretNode(r *Result, namespace, hostPath string) (*yaml.RNode, error) {
	if r == nil {
		return nil, fmt.Errorf("agent Secret: no certificates (nil Result)")
	}
	if errs := validation.IsDNS1123Label(namespace); len(errs) > 0 {
		return nil, fmt.Errorf("agent Secret namespace %q: %s", namespace, strings.Join(errs, "; "))
	}
	if !path.IsAbs(hostPath) || path.Clean(hostPath) != hostPath {
		return nil, fmt.Errorf("agent Secret host path %q: must be a clean absolute path", hostPath)
	}
	files := map[string][]byte{"ca.crt": r.Files[hostlayout.CACertFile], "tls.crt": r.Files[hostlayout.AgentCertFile], "tls.key": r.Files[hostlayout.AgentKeyFile]}
	data := make([]*yaml.Node, 0, 2*len(secretKeys))
	for _, k := range secretKeys {
		if len(files[k]) == 0 {
			return nil, fmt.Errorf("agent Secret: no certificate data for %s", k)
		}
		data = append(data, str(k), str(base64.StdEncoding.EncodeToString(files[k])))
	}
	// Built field by field, in the usual order, so the bytes are stable.
	hp := str(hostPath)
	hp.Style = yaml.DoubleQuotedStyle
	trueLabel := str("true")
	trueLabel.Style = yaml.DoubleQuotedStyle
	return yaml.NewRNode(mapping(
		str("apiVersion"), str("v1"),
		str("kind"), str("Secret"),
		str("metadata"), mapping(
			str("name"), str(hostlayout.AgentSecretName),
			str("namespace"), str(namespace),
			str("labels"), mapping(str(hostlayout.LabelApp), str(hostlayout.AppAgent), str(hostlayout.LabelBootstrapOnly), trueLabel),
			str("annotations"), mapping(str(hostlayout.AnnotationHostPath), hp, str(hostlayout.AnnotationPlacement), str(hostlayout.PlacementClusterManifest)),
		),
		str("type"), str("kubernetes.io/tls"),
		str("data"), mapping(data...),
	)), nil
}

func str(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: v}
}

func mapping(kv ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap, Content: kv}
}
