package render

import (
	"errors"
	"fmt"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/imageref"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
)

// checkImage applies the container reference grammar the kubelet's runtime
// uses. An empty image means the overlay pins it (checkPinned verifies that).
func checkImage(image string) error {
	if image == "" {
		return nil
	}
	if err := imageref.Check(image); err != nil {
		return inputErrorf("--image", imageref.Fix, "%v", err).usage()
	}
	return nil
}

// checkKey validates --key-algorithm and --key-size with the certificate
// library's own rules.
func checkKey(opts Options) error {
	err := certs.CheckKey(opts.KeyAlgorithm, opts.KeySize)
	var fe *certs.FieldError
	if errors.As(err, &fe) {
		field := "--key-algorithm"
		if fe.Field == "KeySize" {
			field = "--key-size"
		}
		return inputErrorf(field, "use ecdsa (P-256), or rsa with 2048, 3072 or 4096 bits", "%v", fe.Err).usage()
	}
	return err
}

// ipInputError words bootstrapip's verdict on the address from field.
// Every fault of --bootstrap-ip is a usage error, a family the overlay's
// ipFamily does not take too (as every command says it, kustbuild.FamilyError);
// the overlay's own spec.bootstrapIP of another family is bad input.
func ipInputError(field, overlay string, bad *bootstrapip.Error) *InputError {
	if bad.Problem == bootstrapip.WrongFamily && field == bootstrapip.FlagField { // worded as every command words it
		fam := kustbuild.WrongFamily(bad.Input, bad.Got, bad.Want, overlay)
		return (&InputError{Field: field, Message: fam.Message(), Fix: fam.Fix(), Sentence: true}).usage() // kustbuild.IsFlagError
	}
	if bad.Problem == bootstrapip.WrongFamily {
		return inputErrorf(field, fmt.Sprintf("give an %s address, or use an overlay for %s", bad.Want.Name(), bad.Got.Name()),
			"%s is an %s address but the overlay's ipFamily needs %s", bad.Input, bad.Got.Name(), bad.Want.Name())
	}
	e := inputErrorf(field, "give the bootstrap node's routable IPv4 or IPv6 address (no port or prefix), or auto to detect it", "%v", bad)
	e.Usage = field == bootstrapip.FlagField
	return e
}

// checkPinned refuses a bundle whose containers still name the generator's
// placeholder image: without --image, the overlay must pin the image itself
// (an images: entry or spec.image), or the kubelet would pull a name that
// does not exist.
func checkPinned(m *bundlemodel.Bundle, overlay string) error {
	for _, o := range m.Objects {
		for _, c := range o.Containers() {
			if c.Image == bundlev1.DefaultImage {
				return inputSentencef("--image", "pass --image REF, or pin the image in the overlay (an images: entry for "+bundlev1.DefaultImage+", or spec.image)",
					"was not given, and %s %s of overlay %s still uses the placeholder image %s", o.Kind, o.Name, overlayName(overlay), bundlev1.DefaultImage).usage()
			}
		}
	}
	return nil
}
