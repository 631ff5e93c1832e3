package check

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/yamlguard"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
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
	if err := yamlguard.CheckSize(int64(len(stream))); err != nil {
		return nil, fmt.Errorf("parse YAML stream: %w", err)
	}
	// A missing `---` reads as duplicate keys; name the real cause first.
	if err := checkSeparators(stream); err != nil {
		return nil, fmt.Errorf("parse YAML stream: %w", err)
	}
	if err := yamlguard.Check(stream); err != nil {
		return nil, fmt.Errorf("parse YAML stream: %w", err)
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
	b.findNamespace()
	return b
}

// findNamespace picks the bundle's Namespace among possibly many in a larger
// build: the agents' own, else the default one, else the one labelled
// bootstrap-only, else the only one.
func (b *bundle) findNamespace() {
	var all, labelled []*object
	for _, o := range b.objects {
		if o.kind == "Namespace" {
			all = append(all, o)
			if o.labels[hostlayout.LabelBootstrapOnly] == "true" {
				labelled = append(labelled, o)
			}
		}
	}
	for _, want := range []string{b.agentNamespace(), bundlev1.DefaultNamespace} {
		for _, o := range all {
			if want != "" && o.name == want {
				b.namespace = o
				return
			}
		}
	}
	switch {
	case len(labelled) == 1:
		b.namespace = labelled[0]
	case len(all) == 1:
		b.namespace = all[0]
	}
}

func (b *bundle) agentNamespace() string {
	if b.agent == nil {
		return ""
	}
	return b.agent.obj.ns
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
	case hostlayout.EgressKind:
		b.egress = firstObject(b.egress, o)
	case hostlayout.OverrideKind:
		b.override = firstObject(b.override, o)
	}
	spec, specField := podSpecOf(o)
	if spec == nil {
		return
	}
	if b.server == nil {
		b.server = findWorkload(o, spec, specField, anp.Server)
	}
	if b.agent == nil {
		b.agent = findWorkload(o, spec, specField, anp.Agent)
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
	want := hostlayout.AgentSecretName
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
