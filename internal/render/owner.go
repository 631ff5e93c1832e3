package render

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// AnnotationOwner marks the cluster objects render writes with the id of
// the root that wrote them (State.Owner). It lies outside the internal
// bundle.konnectivity.io/ prefix because it must reach the written files:
// the live objects carry it, and teardown deletes only objects that prove
// to be its own.
const AnnotationOwner = "konnectivity-bundle.io/owner"

// newOwnerID is a fresh id for a root's first render: 128 random bits, so
// no other root or user can guess it.
func newOwnerID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (it panics instead)
	return hex.EncodeToString(b)
}

// ownerFor is the root's id: the one an earlier render recorded, so a
// re-run writes the same bytes, or a new one.
func ownerFor(opts Options, prev *State) string {
	switch {
	case prev.Owner != "":
		return prev.Owner
	case opts.ownerID != "":
		return opts.ownerID
	}
	return newOwnerID()
}

// stampOwner puts the owner marker on every cluster object of the model.
func stampOwner(objs []object, owner string) error {
	for _, o := range objs {
		if o.placement != PlacementCluster {
			continue
		}
		if err := o.node.PipeE(yaml.SetAnnotation(AnnotationOwner, owner)); err != nil {
			return fmt.Errorf("%s: mark the owner: %w", o.id(), err)
		}
	}
	return nil
}
