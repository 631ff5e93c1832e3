package result

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Function returns results in the form a KRM function emits them, which is
// all kustomize and kpt show: the fix folded into the message, only the rule
// kept as a tag, and the object resolved to a ResourceRef naming the item
// of items it came from (none when no item matches). rs is not changed.
func Function(rs framework.Results, items []*yaml.RNode) framework.Results {
	out := make(framework.Results, 0, len(rs))
	for _, r := range rs {
		f := *r
		f.Message = message(r)
		f.Tags = nil
		if rule := Rule(r); rule != "" {
			f.Tags = map[string]string{tagRule: rule}
		}
		if f.ResourceRef == nil {
			f.ResourceRef = resourceRef(Object(r), items)
		}
		out = append(out, &f)
	}
	return out
}

// resourceRef finds the item an object named "Kind namespace/name" (or
// "Kind name") is.
func resourceRef(object string, items []*yaml.RNode) *yaml.ResourceIdentifier {
	kind, rest, ok := strings.Cut(object, " ")
	if !ok {
		return nil
	}
	ns, name, hasNS := strings.Cut(rest, "/")
	if !hasNS {
		ns, name = "", rest
	}
	for _, it := range items {
		if it.GetKind() == kind && it.GetName() == name && it.GetNamespace() == ns {
			id := &yaml.ResourceIdentifier{}
			id.APIVersion, id.Kind, id.Name, id.Namespace = it.GetApiVersion(), kind, name, ns
			return id
		}
	}
	return nil
}
