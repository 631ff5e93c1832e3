package render

import (
	"errors"
	"fmt"
	"net/netip"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/yamlguard"
)

// buildModel builds the overlay once. The bootstrap IP is settled when the
// build reaches the overlay's config (settleIP), so the overlay's own
// spec.bootstrapIP and ipFamily count without a second build; the build
// hands the address to the generator and back in the model. For auto it
// also returns where the address came from, for the report.
func buildModel(d *deps, opts Options, flag netip.Addr) (*kustbuild.Model, string, error) {
	var source string
	kopts := kustbuild.Options{Image: opts.Image, ProxyVersion: opts.ProxyVersion, Pin: opts.Pin, Getenv: getenvOf(opts),
		BootstrapIPFor: func(spec bundlev1.Spec) (netip.Addr, error) {
			var ip netip.Addr
			var err error
			ip, source, err = settleIP(d, opts, flag, spec)
			return ip, err
		}}
	m, err := d.build(opts.Overlay, kopts)
	if err != nil {
		var input *InputError
		if errors.As(err, &input) {
			return nil, "", input // already says which flag or field to change
		}
		var pin *kustbuild.PinConflictError
		if errors.As(err, &pin) {
			return nil, "", &InputError{Field: pin.Source, Message: pin.Conflict(), Fix: pin.Fix(), Sentence: true}
		}
		var unknown *kustbuild.UnknownTargetError
		if errors.As(err, &unknown) {
			return nil, "", inputErrorf("--overlay", "give a kustomization directory or an overlay name", "%v", unknown)
		}
		// Hostile YAML, a generator config its function refuses, a field the
		// objects' types do not have and a patch without its target are bad
		// input (exit 3).
		if errors.As(err, new(*yamlguard.Error)) || errors.As(err, new(*kustbuild.ConfigError)) ||
			errors.As(err, new(*kustbuild.UnknownFieldsError)) || errors.As(err, new(*kustbuild.PatchTargetError)) {
			return nil, "", &InputError{Field: "--overlay", Message: fmt.Sprintf("build overlay %s: %v", overlayName(opts.Overlay), err), Fix: "correct the file or field named above; konnectivity-bundle build DIR shows the same error"}
		}
		return nil, "", fmt.Errorf("build overlay %s: %w", overlayName(opts.Overlay), err)
	}
	return m, source, nil
}

// getenvOf never returns nil: a nil Getenv means no environment, where the
// build would otherwise fall back to the process's.
func getenvOf(opts Options) func(string) string {
	if opts.Getenv == nil {
		return func(string) string { return "" }
	}
	return opts.Getenv
}

// settleIP applies kustbuild.SettleBootstrapIP to --bootstrap-ip (flag,
// checked by flagIP; zero for auto or none) and the overlay's
// spec, then checks the address against the overlay's ipFamily. auto detects
// an address of the overlay's family unless the overlay names one itself
// (its own address beats a guess), and says where the address came from. A
// disabled bundle needs no address.
func settleIP(d *deps, opts Options, flag netip.Addr, spec bundlev1.Spec) (netip.Addr, string, error) {
	enabled := spec.Enabled == nil || *spec.Enabled
	fam := bootstrapip.Family(spec.IPFamily)
	source := ""
	if opts.AutoBootstrapIP {
		source = "the overlay's spec.bootstrapIP (auto detects only when the overlay names none)"
		if spec.BootstrapIP == "" && enabled {
			det, err := detect(d, opts, fam)
			if err != nil {
				return netip.Addr{}, "", err
			}
			flag, source = det.Addr, det.Source
		}
	}
	ip, err := settleAgainst(opts, flag, spec, enabled, fam)
	return ip, source, err
}

// settleAgainst is settleIP's rule once the flag is known.
func settleAgainst(opts Options, flag netip.Addr, spec bundlev1.Spec, enabled bool, fam bootstrapip.Family) (netip.Addr, error) {
	ip, err := kustbuild.SettleBootstrapIP(flag, spec)
	var conflict *kustbuild.BootstrapIPConflictError
	switch {
	case errors.As(err, &conflict):
		return ip, inputSentencef("--bootstrap-ip", "drop --bootstrap-ip to use the overlay's address, or pass the same address, or change spec.bootstrapIP in the overlay",
			"%s disagrees with overlay %s's spec.bootstrapIP %s", conflict.Flag, overlayName(opts.Overlay), conflict.Spec)
	case err != nil:
		return ip, err
	case !ip.IsValid() && spec.BootstrapIP != "":
		_, err := bootstrapip.Validate(spec.BootstrapIP, fam) // the overlay's own address is unusable: say why
		return ip, ipInputError("overlay spec.bootstrapIP", bootstrapip.AsError(err))
	case !ip.IsValid() && enabled:
		return ip, inputSentencef("--bootstrap-ip", "pass the bootstrap node's IP or auto, or set spec.bootstrapIP in the overlay",
			"was not given, and overlay %s sets no spec.bootstrapIP: render needs the address agents dial", overlayName(opts.Overlay))
	case !ip.IsValid():
		return ip, nil
	}
	field := "--bootstrap-ip"
	if !flag.IsValid() {
		field = "overlay spec.bootstrapIP"
	}
	if err := bootstrapip.Check(ip, fam); err != nil {
		return netip.Addr{}, ipInputError(field, bootstrapip.AsError(err))
	}
	return ip, nil
}

// detect is --bootstrap-ip auto for the overlay's family: the address and
// where it came from. The detection applies bootstrapip's rules itself;
// render only checks the family.
func detect(d *deps, opts Options, fam bootstrapip.Family) (bootstrapip.Detection, error) {
	det, err := d.detectIP(fam.Primary(), getenvOf(opts))
	if err != nil {
		return det, inputErrorf("--bootstrap-ip", "pass the address explicitly", "auto: %v", err)
	}
	if err := bootstrapip.Check(det.Addr, fam); err != nil {
		bad := ipInputError("--bootstrap-ip", bootstrapip.AsError(err))
		return det, inputErrorf(bad.Field, "pass the address explicitly", "auto detected %s (%s), which cannot be used: %s", det.Addr, det.Source, bad.Message)
	}
	return det, nil
}

func overlayName(o string) string {
	if o == "" {
		return kustbuild.DefaultOverlay
	}
	return o
}
