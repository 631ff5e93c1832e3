package teardown

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// recordedKindsMapper maps a recorded object without a discovery round trip
// (and without linking client-go's discovery, whose typed scheme costs every
// command start-up time): the resource name follows the API convention for
// the kind, and the scope follows from whether render recorded a namespace.
type recordedKindsMapper struct{}

func (recordedKindsMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	gvk := gk.WithVersion("")
	if len(versions) > 0 {
		gvk.Version = versions[0]
	}
	plural, _ := meta.UnsafeGuessKindToResource(gvk)
	return &meta.RESTMapping{Resource: plural, GroupVersionKind: gvk, Scope: meta.RESTScopeNamespace}, nil
}
