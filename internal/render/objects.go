package render

import (
	"fmt"
	"path"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// object is one document of the bundle with where it goes on the host.
type object struct {
	node                              *yaml.RNode
	apiVersion, kind, namespace, name string
	placement, hostPath               string
}

func (o object) id() string {
	if o.namespace != "" {
		return fmt.Sprintf("%s/%s %s/%s", o.apiVersion, o.kind, o.namespace, o.name)
	}
	return fmt.Sprintf("%s/%s %s", o.apiVersion, o.kind, o.name)
}

// newObjects resolves every built object's placement; the nodes become
// render's model of the bundle and are not copied.
func newObjects(nodes []*yaml.RNode) ([]object, error) {
	objs := make([]object, 0, len(nodes))
	for _, n := range nodes {
		o, err := newObject(n)
		if err != nil {
			return nil, err
		}
		objs = append(objs, o)
	}
	return objs, uniqueHostPaths(objs)
}

// uniqueHostPaths refuses two objects bound for one file.
func uniqueHostPaths(objs []object) error {
	seen := map[string]string{}
	for _, o := range objs {
		if prev, dup := seen[o.hostPath]; dup {
			return fmt.Errorf("%s and %s both have %s %s", prev, o.id(), hostlayout.AnnotationHostPath, o.hostPath)
		}
		seen[o.hostPath] = o.id()
	}
	return nil
}

// nodes is the model as the checks read it.
func nodes(objs []object) []*yaml.RNode {
	out := make([]*yaml.RNode, len(objs))
	for i, o := range objs {
		out[i] = o.node
	}
	return out
}

func newObject(n *yaml.RNode) (object, error) {
	meta, err := n.GetMeta()
	if err != nil {
		return object{}, fmt.Errorf("read metadata of a bundle object: %w", err)
	}
	o := object{node: n, apiVersion: meta.APIVersion, kind: meta.Kind, namespace: meta.Namespace, name: meta.Name}
	ann := n.GetAnnotations()
	o.placement, o.hostPath = ann[hostlayout.AnnotationPlacement], ann[hostlayout.AnnotationHostPath]
	switch o.placement {
	case hostlayout.PlacementStaticPod, hostlayout.PlacementClusterManifest, hostlayout.PlacementKASEgressConfig, hostlayout.PlacementKASConfigOverride:
	case "":
		return o, fmt.Errorf("%s has no %s annotation, so render does not know where it goes", o.id(), hostlayout.AnnotationPlacement)
	default:
		return o, fmt.Errorf("%s: unknown %s %q", o.id(), hostlayout.AnnotationPlacement, o.placement)
	}
	if err := checkHostPath(o.hostPath); err != nil {
		return o, fmt.Errorf("%s: %s: %w", o.id(), hostlayout.AnnotationHostPath, err)
	}
	return o, nil
}

// checkHostPath keeps every write inside the root.
func checkHostPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("missing")
	case !path.IsAbs(p):
		return fmt.Errorf("%q is not absolute", p)
	case path.Clean(p) != p || p == "/":
		return fmt.Errorf("%q is not a clean file path", p)
	}
	return nil
}

// fileBytes is the object as written: placement annotations removed, and for
// KAS configuration files the whole metadata, which the KAS and the
// config-override render read as plain configuration.
func (o object) fileBytes() ([]byte, error) {
	n := o.node.Copy()
	if o.placement == hostlayout.PlacementKASEgressConfig || o.placement == hostlayout.PlacementKASConfigOverride {
		if err := n.PipeE(yaml.Clear(yaml.MetadataField)); err != nil {
			return nil, fmt.Errorf("%s: strip metadata: %w", o.id(), err)
		}
	} else {
		for k := range n.GetAnnotations() {
			// The proxy version stays: status and wait read it from the
			// written files, and it tells a reader of the cluster's
			// DaemonSet which proxy the flags are for.
			if strings.HasPrefix(k, hostlayout.AnnotationPrefix) && k != anp.AnnotationProxyVersion {
				if err := n.PipeE(yaml.ClearAnnotation(k)); err != nil {
					return nil, fmt.Errorf("%s: strip %s: %w", o.id(), k, err)
				}
			}
		}
		if err := yaml.ClearEmptyAnnotations(n); err != nil {
			return nil, fmt.Errorf("%s: %w", o.id(), err)
		}
	}
	s, err := n.String()
	if err != nil {
		return nil, fmt.Errorf("%s: serialise: %w", o.id(), err)
	}
	return []byte(s), nil
}
