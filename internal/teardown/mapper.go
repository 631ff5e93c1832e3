package teardown

import (
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/restmapper"
)

// knownKindsMapper answers the kinds the bundle makes without a discovery
// round trip, and asks discovery only for anything else an overlay added.
type knownKindsMapper struct {
	discovery discovery.DiscoveryInterface
	once      sync.Once
	fromAPI   meta.RESTMapper
	err       error
}

var knownKinds = func() meta.RESTMapper {
	m := meta.NewDefaultRESTMapper(nil)
	m.Add(schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}, meta.RESTScopeRoot)
	for _, k := range []string{"Secret", "ConfigMap", "ServiceAccount", "Service"} {
		m.Add(schema.GroupVersionKind{Version: "v1", Kind: k}, meta.RESTScopeNamespace)
	}
	m.Add(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DaemonSet"}, meta.RESTScopeNamespace)
	return m
}()

func (m *knownKindsMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	if r, err := knownKinds.RESTMapping(gk, versions...); err == nil {
		return r, nil
	}
	m.once.Do(func() {
		var groups []*restmapper.APIGroupResources
		if groups, m.err = restmapper.GetAPIGroupResources(m.discovery); m.err == nil {
			m.fromAPI = restmapper.NewDiscoveryRESTMapper(groups)
		}
	})
	if m.err != nil {
		return nil, m.err
	}
	return m.fromAPI.RESTMapping(gk, versions...)
}
