package render

import (
	"errors"
	"fmt"
	"net/netip"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/yamlguard"
)

// buildModel builds the overlay once, for the bootstrap IP settled before
// the build: kustbuild.ReadSpec reads the overlay's config first (its own
// spec.bootstrapIP, ipFamily and whether it is enabled; nothing generated),
// settleIP decides the address from it, and the build hands that address
// to the generator. It returns the model, the address (the zero Addr when
// the overlay has no KonnectivityBundle config and no flag gave one) and,
// for auto, where the address came from.
func buildModel(d *deps, opts Options) (*kustbuild.Model, netip.Addr, string, error) {
	kopts := kustbuild.Options{Image: opts.Image, ProxyVersion: opts.ProxyVersion, Pin: opts.Pin, Getenv: getenvOf(opts)}
	if !opts.AutoBootstrapIP {
		kopts.BootstrapIP = opts.BootstrapIP // what a function other than the generator may take before the build
	}
	spec, err := d.readSpec(opts.Overlay, kopts)
	if err != nil {
		return nil, netip.Addr{}, "", buildError(opts, err)
	}
	ip, source, err := settleIP(d, opts, spec)
	if err != nil {
		return nil, netip.Addr{}, "", err
	}
	kopts.BootstrapIP = ip
	m, err := d.build(opts.Overlay, kopts)
	if err != nil {
		return nil, netip.Addr{}, "", buildError(opts, err)
	}
	return m, ip, source, nil
}

// buildError words an error of the overlay's build (or of reading its
// spec, which is the same build stopped early).
func buildError(opts Options, err error) error {
	var input *InputError
	if errors.As(err, &input) {
		return input // already says which flag or field to change
	}
	var pin *kustbuild.PinConflictError
	if errors.As(err, &pin) {
		return &InputError{Field: pin.Source, Message: pin.Conflict(), Fix: pin.Fix(), Sentence: true}
	}
	var unknown *kustbuild.UnknownTargetError
	if errors.As(err, &unknown) {
		return inputErrorf("OVERLAY", "give a kustomization directory or an overlay name", "%v", unknown)
	}
	// Hostile YAML, a file over its cap, a generator config its function
	// refuses, a field the objects' types do not have and a patch without
	// its target are bad input (exit 3).
	if errors.As(err, new(*yamlguard.Error)) || errors.Is(err, inputread.ErrTooLarge) || errors.As(err, new(*kustbuild.ConfigError)) ||
		errors.As(err, new(*kustbuild.UnknownFieldsError)) || errors.As(err, new(*kustbuild.PatchTargetError)) {
		return &InputError{Field: "OVERLAY", Message: fmt.Sprintf("build overlay %s: %v", overlayName(opts.Overlay), err), Fix: "correct the file or field named above; konnectivity-bundle build DIR shows the same error"}
	}
	return fmt.Errorf("build overlay %s: %w", overlayName(opts.Overlay), err)
}

// getenvOf never returns nil: a nil Getenv means no environment, where the
// build would otherwise fall back to the process's.
func getenvOf(opts Options) func(string) string {
	if opts.Getenv == nil {
		return func(string) string { return "" }
	}
	return opts.Getenv
}

func overlayName(o string) string {
	if o == "" {
		return kustbuild.DefaultOverlay
	}
	return o
}
