package bundlemodel

import (
	"slices"
	"testing"
)

// TestObjectPlacementAndContainers: where an object goes on the host, and
// the containers of Pods and pod templates, whatever binary they run.
func TestObjectPlacementAndContainers(t *testing.T) {
	const ann = "  annotations:\n    bundle.konnectivity.io/placement: static-pod\n    bundle.konnectivity.io/host-path: /etc/p.yaml\n"
	cases := []struct {
		name, doc           string
		placement, hostPath string
		images              []string
	}{
		{"pod", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n" + ann + "spec:\n  containers:\n  - name: a\n    image: x\n  - name: b\n    image: y\n",
			"static-pod", "/etc/p.yaml", []string{"x", "y"}},
		{"daemonset", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n      - name: a\n        image: z\n",
			"", "", []string{"z"}},
		{"spec that does not decode", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: 5\n", "", "", nil},
		{"no pod", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  image: x\n", "", "", nil},
	}
	for _, tc := range cases {
		b, err := Parse([]byte(tc.doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		o := b.Objects[0]
		var images []string
		for _, c := range o.Containers() {
			images = append(images, c.Image)
		}
		if o.Placement() != tc.placement || o.HostPath() != tc.hostPath || !slices.Equal(images, tc.images) {
			t.Errorf("%s: placement %q, host path %q, images %q; want %q, %q, %q", tc.name, o.Placement(), o.HostPath(), images, tc.placement, tc.hostPath, tc.images)
		}
	}
}
