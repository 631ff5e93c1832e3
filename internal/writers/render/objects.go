package render

import (
	"fmt"
	"path"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// The bundle's objects are bundlemodel's, named by its identity; render
// adds that each says where it goes on the host, and writes it there.

// checkPlacements requires every object to name a known placement and a
// host path inside the root, and no two objects to name one file.
func checkPlacements(objs []*bundlemodel.Object) error {
	for _, o := range objs {
		if err := checkPlacement(o); err != nil {
			return err
		}
	}
	return uniqueHostPaths(objs)
}

// uniqueHostPaths refuses two objects bound for one file.
func uniqueHostPaths(objs []*bundlemodel.Object) error {
	seen := map[string]string{}
	for _, o := range objs {
		id := o.ID().String()
		if prev, dup := seen[o.HostPath()]; dup {
			return fmt.Errorf("%s and %s both have %s %s", prev, id, hostlayout.AnnotationHostPath, o.HostPath())
		}
		seen[o.HostPath()] = id
	}
	return nil
}

// checkPlacement requires a document that is an object, with a placement
// render knows and a clean absolute host path.
func checkPlacement(o *bundlemodel.Object) error {
	if o.Node.YNode().Kind != yaml.MappingNode {
		return fmt.Errorf("read metadata of a bundle object: %w", o.Malformed)
	}
	switch o.Placement() {
	case hostlayout.PlacementStaticPod, hostlayout.PlacementClusterManifest, hostlayout.PlacementKASEgressConfig, hostlayout.PlacementKASConfigOverride:
	case "":
		return fmt.Errorf("%s has no %s annotation, so render does not know where it goes", o.ID(), hostlayout.AnnotationPlacement)
	default:
		return fmt.Errorf("%s: unknown %s %q", o.ID(), hostlayout.AnnotationPlacement, o.Placement())
	}
	if err := checkHostPath(o.HostPath()); err != nil {
		return fmt.Errorf("%s: %s: %w", o.ID(), hostlayout.AnnotationHostPath, err)
	}
	return nil
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
func fileBytes(o *bundlemodel.Object) ([]byte, error) {
	n := o.Node.Copy()
	if o.Placement() == hostlayout.PlacementKASEgressConfig || o.Placement() == hostlayout.PlacementKASConfigOverride {
		if err := n.PipeE(yaml.Clear(yaml.MetadataField)); err != nil {
			return nil, fmt.Errorf("%s: strip metadata: %w", o.ID(), err)
		}
	} else {
		for k := range n.GetAnnotations() {
			// The proxy version stays: status and wait read it from the
			// written files, and it tells a reader of the cluster's
			// DaemonSet which proxy the flags are for.
			if strings.HasPrefix(k, hostlayout.AnnotationPrefix) && k != proxyversion.AnnotationProxyVersion {
				if err := n.PipeE(yaml.ClearAnnotation(k)); err != nil {
					return nil, fmt.Errorf("%s: strip %s: %w", o.ID(), k, err)
				}
			}
		}
		if err := yaml.ClearEmptyAnnotations(n); err != nil {
			return nil, fmt.Errorf("%s: %w", o.ID(), err)
		}
	}
	s, err := n.String()
	if err != nil {
		return nil, fmt.Errorf("%s: serialise: %w", o.ID(), err)
	}
	return []byte(s), nil
}
