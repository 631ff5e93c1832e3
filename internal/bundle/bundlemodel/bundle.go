// Package bundlemodel reads a bootstrap Konnectivity bundle into its roles
// (docs/bundle-shape.md): the server static pod, the agent DaemonSet, the
// agents' certificate Secret and Namespace, the EgressSelectorConfiguration
// and the KAS override, each workload's command line parsed by internal/proxyversion.
// check, render, ports and status all read a bundle through it, so they
// agree on which object plays which role and on what a flag's value is.
package bundlemodel

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/manifest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// Object is one resource of the stream.
type Object struct {
	Node                              *yaml.RNode
	APIVersion, Kind, Name, Namespace string
	Labels, Annotations               map[string]string
	Malformed                         error           // set when the object does not decode into its type
	podSpec                           *corev1.PodSpec // see Containers
}

// Ref is the object as findings and reports name it: "Kind namespace/name",
// or "Kind name" without a namespace.
func (o *Object) Ref() string {
	if o.Namespace != "" {
		return fmt.Sprintf("%s %s/%s", o.Kind, o.Namespace, o.Name)
	}
	return fmt.Sprintf("%s %s", o.Kind, o.Name)
}

// Bundle is a stream sorted into the roles of docs/bundle-shape.md. A role
// the stream does not fill is nil (a bootstrap-in-place bundle has no server
// and no agent).
type Bundle struct {
	Objects   []*Object // every document, in stream order
	Server    *Workload // the first container running proxy-server
	Agent     *Workload // the first container running proxy-agent
	Egress    *Object   // the EgressSelectorConfiguration
	Override  *Object   // the KAS config override
	Secret    *Object   // the agents' certificate Secret
	Namespace *Object   // the agents' Namespace
	// SecretData is Secret decoded; nil when there is none or it is malformed.
	SecretData *corev1.Secret
	// Target is the proxy version the bundle is for (see version.go); its
	// binaries parse the Server's and Agent's flags.
	Target Target
	// Tunnel is where the agents dial, read once from the flags (tunnel.go).
	Tunnel Tunnel
}

// Parse reads a YAML stream into a bundle. The error is only for a stream
// that is not parsable YAML.
func Parse(stream []byte) (*Bundle, error) {
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
	return New(nodes), nil
}

// New sorts parsed objects into their roles; it never modifies them.
func New(nodes []*yaml.RNode) *Bundle {
	b := &Bundle{}
	for _, n := range nodes {
		o := newObject(n)
		b.Objects = append(b.Objects, o)
		b.classify(o)
	}
	b.settleTarget() // parses the workloads' flags, which the Secret is found by
	b.Tunnel = b.readTunnel()
	b.findSecret()
	b.findNamespace()
	return b
}

// findNamespace picks the bundle's Namespace among possibly many in a larger
// build: the agents' own, else the default one, else the one labelled
// bootstrap-only, else the only one.
func (b *Bundle) findNamespace() {
	var all, labelled []*Object
	for _, o := range b.Objects {
		if o.Kind == "Namespace" {
			all = append(all, o)
			if o.Labels[hostlayout.LabelBootstrapOnly] == "true" {
				labelled = append(labelled, o)
			}
		}
	}
	for _, want := range []string{b.agentNamespace(), hostlayout.AgentNamespace} {
		for _, o := range all {
			if want != "" && o.Name == want {
				b.Namespace = o
				return
			}
		}
	}
	switch {
	case len(labelled) == 1:
		b.Namespace = labelled[0]
	case len(all) == 1:
		b.Namespace = all[0]
	}
}

func (b *Bundle) agentNamespace() string {
	if b.Agent == nil {
		return ""
	}
	return b.Agent.Object.Namespace
}

func newObject(n *yaml.RNode) *Object {
	o := &Object{Node: n, Labels: map[string]string{}, Annotations: map[string]string{}}
	if n.YNode().Kind != yaml.MappingNode {
		o.Malformed = fmt.Errorf("document is a %s, not an object", kindName(n.YNode().Kind))
		return o
	}
	o.APIVersion, o.Kind = stringField(n, "apiVersion"), stringField(n, "kind")
	if meta := n.Field("metadata"); meta != nil && meta.Value.YNode().Kind == yaml.MappingNode {
		o.Name = stringField(meta.Value, "name")
		o.Namespace = stringField(meta.Value, "namespace")
		o.Labels = stringMap(meta.Value, "labels")
		o.Annotations = stringMap(meta.Value, "annotations")
	}
	return o
}

func (b *Bundle) classify(o *Object) {
	switch o.Kind {
	case egressconfig.Kind:
		b.Egress = firstObject(b.Egress, o)
	case hostlayout.OverrideKind:
		b.Override = firstObject(b.Override, o)
	}
	spec, specField := podSpecOf(o)
	if spec == nil {
		return
	}
	o.podSpec = spec
	// Binaries are found by name, which every version shares.
	if b.Server == nil {
		b.Server = findWorkload(o, spec, specField, proxyversion.Newest.Server)
	}
	if b.Agent == nil {
		b.Agent = findWorkload(o, spec, specField, proxyversion.Newest.Agent)
	}
}

func firstObject(have, o *Object) *Object {
	if have != nil {
		return have
	}
	return o
}

// findSecret picks the agent's certificate Secret: the one its volume names,
// else the one with the default name.
func (b *Bundle) findSecret() {
	want := hostlayout.AgentSecretName
	if b.Agent != nil {
		if v := b.Agent.SecretVolume(); v != nil && v.Secret != nil {
			want = v.Secret.SecretName
		}
	}
	for _, o := range b.Objects {
		if o.Kind == "Secret" && o.Name == want {
			b.Secret = o
			break
		}
	}
	if b.Secret == nil {
		return
	}
	s := &corev1.Secret{}
	if err := decodeInto(b.Secret.Node, s); err != nil {
		b.Secret.Malformed = err
		return
	}
	b.SecretData = s
}

// SecretKey returns the Secret's data for key (data or stringData).
func (b *Bundle) SecretKey(key string) ([]byte, bool) {
	if b.SecretData == nil {
		return nil, false
	}
	if v, ok := b.SecretData.Data[key]; ok {
		return v, true
	}
	if v, ok := b.SecretData.StringData[key]; ok {
		return []byte(v), true
	}
	return nil, false
}

// ID is the object's identity as manifest names it, `apiVersion Kind
// namespace/name`; reports name their sources by it.
func (o *Object) ID() manifest.ID {
	return manifest.ID{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
}
