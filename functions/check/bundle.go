package check

import (
	"encoding/json"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Annotation keys and well-known names of docs/bundle-shape.md.
const (
	AnnotationPlacement      = "bundle.konnectivity.io/placement"
	AnnotationHostPath       = "bundle.konnectivity.io/host-path"
	AnnotationKASConfigMount = "bundle.konnectivity.io/kas-config-mount"
	LabelBootstrapOnly       = "openshift.io/bootstrap-only"

	// DefaultKASConfigMount is how the bootstrap KAS mounts the bootstrap-configs
	// directory when an object does not say otherwise.
	DefaultKASConfigMount = "/etc/kubernetes/bootstrap-configs:/etc/kubernetes/config"
	// DefaultEgressHostPath is where the egress file goes without a host-path annotation.
	DefaultEgressHostPath = "/etc/kubernetes/bootstrap-configs/egress-selector-config.yaml"
	// DefaultSecretName is the agent certificate Secret.
	DefaultSecretName = "konnectivity-agent-certs"

	kindEgress   = "EgressSelectorConfiguration"
	kindOverride = "KubeAPIServerConfig"
)

// object is one resource of the stream.
type object struct {
	node                       *yaml.RNode
	apiVersion, kind, name, ns string
	labels, annotations        map[string]string
	malformed                  error // set when the object does not decode into its type
}

// ref is the object as findings name it.
func (o *object) ref() string {
	if o.ns != "" {
		return fmt.Sprintf("%s %s/%s", o.kind, o.ns, o.name)
	}
	return fmt.Sprintf("%s %s", o.kind, o.name)
}

// workload is a pod-running object whose container runs an ANP binary.
type workload struct {
	obj       *object
	spec      *corev1.PodSpec
	specField string // "spec" for a Pod, "spec.template.spec" otherwise
	index     int    // container index
	field     string // e.g. spec.containers[0]
	argv      []string
	flags     *flagSet
}

func (w *workload) container() *corev1.Container { return &w.spec.Containers[w.index] }

// bundle is the stream sorted into the roles of docs/bundle-shape.md.
type bundle struct {
	objects   []*object
	server    *workload
	agent     *workload
	egress    *object
	override  *object
	secret    *object
	secretObj *corev1.Secret
	namespace *object
}

// parseBundle reads the stream and identifies each object's role.
func parseBundle(stream []byte) (*bundle, error) {
	if err := checkExpansion(stream); err != nil {
		return nil, err
	}
	nodes, err := kio.FromBytes(stream)
	if err != nil {
		return nil, fmt.Errorf("parse YAML stream: %w", err)
	}
	return newBundle(nodes), nil
}

// newBundle sorts parsed objects into their roles; it never modifies them.
func newBundle(nodes []*yaml.RNode) *bundle {
	b := &bundle{}
	for _, n := range nodes {
		o := newObject(n)
		b.objects = append(b.objects, o)
		b.classify(o)
	}
	b.findSecret()
	return b
}

func newObject(n *yaml.RNode) *object {
	o := &object{node: n, labels: map[string]string{}, annotations: map[string]string{}}
	if n.YNode().Kind != yaml.MappingNode {
		o.malformed = fmt.Errorf("document is a %s, not an object", kindName(n.YNode().Kind))
		return o
	}
	o.apiVersion, o.kind = stringField(n, "apiVersion"), stringField(n, "kind")
	if meta := n.Field("metadata"); meta != nil && meta.Value.YNode().Kind == yaml.MappingNode {
		o.name = stringField(meta.Value, "name")
		o.ns = stringField(meta.Value, "namespace")
		o.labels = stringMap(meta.Value, "labels")
		o.annotations = stringMap(meta.Value, "annotations")
	}
	return o
}

func (b *bundle) classify(o *object) {
	switch o.kind {
	case kindEgress:
		b.egress = firstObject(b.egress, o)
	case kindOverride:
		b.override = firstObject(b.override, o)
	case "Namespace":
		b.namespace = firstObject(b.namespace, o)
	}
	spec, specField := podSpecOf(o)
	if spec == nil {
		return
	}
	if b.server == nil {
		b.server = findWorkload(o, spec, specField, serverBinary)
	}
	if b.agent == nil {
		b.agent = findWorkload(o, spec, specField, agentBinary)
	}
}

func firstObject(have, o *object) *object {
	if have != nil {
		return have
	}
	return o
}

// findSecret picks the agent's certificate Secret: the one its volume names,
// else the one with the default name.
func (b *bundle) findSecret() {
	want := DefaultSecretName
	if b.agent != nil {
		if v := agentSecretVolume(b.agent); v != nil && v.Secret != nil {
			want = v.Secret.SecretName
		}
	}
	for _, o := range b.objects {
		if o.kind == "Secret" && o.name == want {
			b.secret = o
			break
		}
	}
	if b.secret == nil {
		return
	}
	s := &corev1.Secret{}
	if err := decodeInto(b.secret.node, s); err != nil {
		b.secret.malformed = err
		return
	}
	b.secretObj = s
}

// secretKey returns the Secret's data for key (data or stringData).
func (b *bundle) secretKey(key string) ([]byte, bool) {
	if b.secretObj == nil {
		return nil, false
	}
	if v, ok := b.secretObj.Data[key]; ok {
		return v, true
	}
	if v, ok := b.secretObj.StringData[key]; ok {
		return []byte(v), true
	}
	return nil, false
}

// podSpecOf decodes the pod spec of a Pod or of a workload's template, once
// for all binaries. A spec that does not decode marks the object malformed
// when it was meant to run an ANP binary, so a broken server is reported
// instead of silently missing.
func podSpecOf(o *object) (*corev1.PodSpec, string) {
	if o.malformed != nil || o.kind == "" {
		return nil, ""
	}
	specField, path := "spec.template.spec", []string{"spec", "template", "spec"}
	if o.kind == "Pod" {
		specField, path = "spec", []string{"spec"}
	}
	specNode, err := o.node.Pipe(yaml.Lookup(path...))
	if err != nil || specNode == nil {
		return nil, ""
	}
	spec := &corev1.PodSpec{}
	if err := decodeInto(specNode, spec); err != nil {
		if mentionsBinary(specNode, serverBinary) || mentionsBinary(specNode, agentBinary) {
			o.malformed = fmt.Errorf("%s: %w", specField, err)
		}
		return nil, ""
	}
	return spec, specField
}

// findWorkload returns the workload when a container of spec runs bin.
func findWorkload(o *object, spec *corev1.PodSpec, specField string, bin *binary) *workload {
	for i := range spec.Containers {
		c := &spec.Containers[i]
		argv := append(append([]string{}, c.Command...), c.Args...)
		if !bin.runs(argv) {
			continue
		}
		field := fmt.Sprintf("%s.containers[%d]", specField, i)
		fields := argvFields(field, len(c.Command), len(c.Args))
		return &workload{obj: o, spec: spec, specField: specField, index: i, field: field,
			argv: argv, flags: parseFlags(bin, argv, fields)}
	}
	return nil
}

// mentionsBinary tells whether a pod spec that fails to decode was meant to run
// bin, so a broken server pod is reported instead of silently ignored.
func mentionsBinary(n *yaml.RNode, bin *binary) bool {
	s, err := n.String()
	return err == nil && strings.Contains(s, bin.name)
}

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
