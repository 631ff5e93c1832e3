package bundlemodel

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// Placement is where the object goes on the host (its placement
// annotation, one of hostlayout's Placement values), or "".
func (o *Object) Placement() string { return o.Annotations[hostlayout.AnnotationPlacement] }

// HostPath is the host file the object is written to (its host-path
// annotation), or "".
func (o *Object) HostPath() string { return o.Annotations[hostlayout.AnnotationHostPath] }

// Containers are the containers of a Pod or of a workload's pod template,
// decoded once with the bundle; none for any other object or for a pod
// spec that does not decode.
func (o *Object) Containers() []corev1.Container {
	if o.podSpec == nil {
		return nil
	}
	return o.podSpec.Containers
}
