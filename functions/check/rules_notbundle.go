package check

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// NotABundleRule is the rule id of a stream none of whose documents is a
// Kubernetes object (a text file, a config of another tool): the only
// finding check reports for it, since every other rule would only say the
// same thing object by object.
const NotABundleRule = "not-a-bundle"

// notABundleFix is what check takes, for every input that is not a bundle.
var notABundleFix = bundlemodel.NotABundleFix("check")

// notABundle is the not-a-bundle finding of b, naming what the input holds
// instead, or nil when one of its documents is a Kubernetes object (or it
// has none: checkEmpty says an empty stream, which is what kustomize
// prints when it skips the generator).
func notABundle(b *bundlemodel.Bundle) *report {
	err := b.NotABundle()
	if err == nil {
		return nil
	}
	r := &report{}
	r.errorf(NotABundleRule, bundleObject, "", notABundleFix, "%s", err)
	return r
}
