package render

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// newOwnerID is a fresh id for a root's first render: 128 random bits, so
// no other root or user can guess it.
func newOwnerID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (it panics instead)
	return hex.EncodeToString(b)
}

// ownerFor is the root's id: the one an earlier render recorded, so a
// re-run writes the same bytes, or a new one.
func ownerFor(opts Options, prev *hostlayout.State) string {
	switch {
	case prev.Owner != "":
		return prev.Owner
	case opts.ownerID != "":
		return opts.ownerID
	}
	return newOwnerID()
}

// stampOwner puts the owner marker on every cluster object of the model.
func stampOwner(objs []*bundlemodel.Object, owner string) error {
	for _, o := range objs {
		if o.Placement() != hostlayout.PlacementClusterManifest {
			continue
		}
		if err := o.Node.PipeE(yaml.SetAnnotation(hostlayout.AnnotationOwner, owner)); err != nil {
			return fmt.Errorf("%s: mark the owner: %w", o.ID(), err)
		}
	}
	return nil
}
