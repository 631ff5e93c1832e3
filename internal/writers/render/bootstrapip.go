package render

import (
	"errors"
	"net/netip"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// settleIP decides the bootstrap IP once, before the build, by
// bootstrapip.Resolve from --bootstrap-ip (an address, auto, or none) and
// the overlay's spec as kustbuild.ReadSpec read it (nil: no
// KonnectivityBundle config, or one its generator will refuse in the
// build). It returns the address and, for auto, where it came from; render
// only words the policy's errors as its input errors.
func settleIP(d *deps, opts Options, spec *bundlev1.Spec) (netip.Addr, string, error) {
	g := bootstrapip.Given{Flag: opts.BootstrapIP, Auto: opts.AutoBootstrapIP, Overlay: overlayName(opts.Overlay)}
	if spec != nil {
		g.Spec, g.Family = spec.BootstrapIP, bootstrapip.Family(spec.IPFamily)
		g.Enabled = spec.Enabled == nil || *spec.Enabled
	}
	det, err := bootstrapip.Resolve(g, func(fam bootstrapip.Family) (bootstrapip.Detection, error) {
		return d.detectIP(fam, getenvOf(opts))
	})
	if err != nil {
		return netip.Addr{}, "", settleError(err, opts.Overlay)
	}
	return det.Addr, det.Source, nil
}

// settleError maps the settle policy's errors to render's input errors: a
// missing or unusable --bootstrap-ip, or one of a family the overlay does
// not take, is a usage error (exit 2); a flag that disagrees with the
// overlay's own address, or an overlay address of the wrong family, bad
// input (exit 3).
func settleError(err error, overlay string) error {
	var (
		missing  *bootstrapip.MissingError
		conflict *bootstrapip.ConflictError
		field    *bootstrapip.FieldError
		detect   *bootstrapip.DetectError
	)
	switch {
	case errors.As(err, &missing):
		return inputSentencef(bootstrapip.FlagField, missing.Fix(), "%s", missing.Message()).usage()
	case errors.As(err, &conflict):
		return inputSentencef(conflict.Field(), conflict.Fix(), "%s", conflict.Message())
	case errors.As(err, &field):
		return ipInputError(field.Field, overlay, field.Err)
	case errors.As(err, &detect):
		return inputErrorf(bootstrapip.FlagField, "pass the address explicitly", "%v", detect)
	}
	return err
}

// settled is the address settleIP decided, handed to the build as settled
// for the config it was decided against (spec as settleIP got it), so the
// build does not settle it again.
func settled(ip netip.Addr, opts Options, spec *bundlev1.Spec, source string) bootstrapip.Settled {
	s := bootstrapip.Settled{Addr: ip, From: ipFrom(opts, spec, source)}
	if spec != nil {
		s.Spec = spec.BootstrapIP
	}
	return s
}

// ipFrom names where the address settleIP decided came from when it was not
// --bootstrap-ip, for the build's settle of the overlay's other configs
// (spec as settleIP got it): "" when the flag gave it.
func ipFrom(opts Options, spec *bundlev1.Spec, source string) string {
	ownIP := spec != nil && spec.BootstrapIP != ""
	switch {
	case opts.AutoBootstrapIP && !ownIP:
		return "--bootstrap-ip auto (" + source + ")"
	case opts.AutoBootstrapIP || !opts.BootstrapIP.IsValid():
		return "the overlay's first KonnectivityBundle config"
	}
	return ""
}
