package kustbuild

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// PinPolicy is what a given image does to an image the overlay pins.
type PinPolicy int

// The pin policies.
const (
	// PinRefuse: a given image and a different pinned one are an error
	// naming both (PinConflictError), never a silent choice.
	PinRefuse PinPolicy = iota
	// PinOverride (OverridePinFlag): the given image replaces the pin.
	PinOverride
	// PinKeep (KeepPinFlag): the pin wins, and the given image is only
	// the one for an overlay that pins none.
	PinKeep
)

// KeepPinFlag makes the given image a default that an overlay's pin wins
// over; the bootkube stage, which always has the release's image to give,
// passes it.
const KeepPinFlag = "--keep-pin"

// OverridePinFlag is the flag that lets --image (or KONNECTIVITY_IMAGE)
// replace an image the overlay pins; without it the two together are an
// error, never a silent choice.
const OverridePinFlag = "--override-pin"

// imagePin is an image an overlay pins: an images: entry for the
// generator's placeholder name, or a config's spec.image.
type imagePin struct {
	where string // "images: of DIR/kustomization.yaml", "spec.image of KonnectivityBundle NAME"
	ref   string // the image reference it pins
}

// PinConflictError is --image (or KONNECTIVITY_IMAGE) given for an overlay
// that pins another image, without OverridePinFlag.
type PinConflictError struct {
	Source string // --image or KONNECTIVITY_IMAGE
	Given  string // the reference given there
	Pins   []string
}

func (e *PinConflictError) Error() string {
	return e.Source + " " + e.Conflict() + ": " + e.Fix()
}

// Conflict is the error without its source and fix: the given reference
// and every pin it would replace.
func (e *PinConflictError) Conflict() string {
	return fmt.Sprintf("%s would replace the image the overlay pins (%s)", e.Given, strings.Join(e.Pins, "; "))
}

// Fix is the two ways out.
func (e *PinConflictError) Fix() string {
	return fmt.Sprintf("leave %s out (or pass %s) to deploy the pinned image, or pass %s to deploy %s instead",
		e.Source, KeepPinFlag, OverridePinFlag, e.Given)
}

// recordImagePins notes the images: entries of a kustomization in dir that
// rename the generator's placeholder.
func (f *fnFS) recordImagePins(dir string, kust *yaml.RNode) {
	images, err := kust.Pipe(yaml.Lookup("images"))
	if err != nil || images == nil {
		return
	}
	elems, err := images.Elements()
	if err != nil {
		return
	}
	for _, e := range elems {
		if fieldString(e, "name") != bundle.DefaultImage {
			continue
		}
		where := "images: of " + filepath.Join(dir, "kustomization.yaml")
		if f.immutable { // the embedded tree, rooted at / in memory
			where = "images: of " + filepath.Join(strings.TrimPrefix(dir, "/"), "kustomization.yaml") + " (embedded in the binary)"
		}
		f.addPin(imagePin{where: where, ref: pinnedRef(e)})
	}
}

// pinnedRef is the reference an images: entry makes of the placeholder.
func pinnedRef(e *yaml.RNode) string {
	ref := bundle.DefaultImage
	if n := fieldString(e, "newName"); n != "" {
		ref = n
	}
	if d := fieldString(e, "digest"); d != "" {
		return ref + "@" + d
	}
	if t := fieldString(e, "newTag"); t != "" {
		return ref + ":" + t
	}
	return ref
}

func fieldString(n *yaml.RNode, name string) string {
	f := n.Field(name)
	if f == nil {
		return ""
	}
	return yaml.GetValue(f.Value)
}

func (f *fnFS) addPin(p imagePin) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pins = append(f.pins, p)
}

// imageGiven is the reference --image or KONNECTIVITY_IMAGE gives, and
// which of the two gave it; "" when neither does.
func (o Options) imageGiven() (source, ref string) {
	if o.Image != "" {
		return "--image", o.Image
	}
	get := o.Getenv
	if get == nil {
		get = os.Getenv
	}
	if v := get(bundle.EnvImage); v != "" {
		return bundle.EnvImage, v
	}
	return "", ""
}

// checkPins refuses a given image over a pinned one, unless the caller said
// the override is meant; a pin of the very reference given is no conflict.
func (f *fnFS) checkPins(o Options) error {
	source, given := o.imageGiven()
	if source == "" || o.Pin == PinOverride {
		return nil
	}
	seen := map[string]bool{}
	var pins []string
	for _, p := range f.pins {
		s := p.where + " pins " + p.ref
		if p.ref == given || seen[s] {
			continue
		}
		seen[s] = true
		pins = append(pins, s)
	}
	if len(pins) == 0 {
		return nil
	}
	sort.Strings(pins)
	return &PinConflictError{Source: source, Given: given, Pins: pins}
}

// withoutImage is o with no image given: neither Image nor the
// environment's KONNECTIVITY_IMAGE.
func (o Options) withoutImage() Options {
	base := o.Getenv
	if base == nil {
		base = os.Getenv
	}
	o.Image, o.Pin = "", PinRefuse
	o.Getenv = func(key string) string {
		if key == bundle.EnvImage {
			return ""
		}
		return base(key)
	}
	return o
}

// specImagePin records a config's own spec.image, as written after every
// patch, and returns the config the generator is to run: with
// OverridePin and an image given, that config without spec.image, so the
// given image is generated (the spec's image otherwise wins over the
// environment).
func (f *fnFS) specImagePin(c *yaml.RNode, spec *bundle.Spec) (*yaml.RNode, error) {
	if spec.Image == "" {
		return c, nil
	}
	f.addPin(imagePin{where: "spec.image of " + bundle.Kind + " " + c.GetName(), ref: spec.Image})
	if !f.overridePin || f.getenv(bundle.EnvImage) == "" {
		return c, nil
	}
	c = c.Copy()
	if _, err := c.Pipe(yaml.Lookup("spec"), yaml.Clear("image")); err != nil {
		return nil, fmt.Errorf("%s %s: dropping spec.image for %s: %w", bundle.Kind, c.GetName(), OverridePinFlag, err)
	}
	return c, nil
}
