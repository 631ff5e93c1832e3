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
		return inputErrorf("--overlay", "give a kustomization directory or an overlay name", "%v", unknown)
	}
	// Hostile YAML, a generator config its function refuses, a field the
	// objects' types do not have and a patch without its target are bad
	// input (exit 3).
	if errors.As(err, new(*yamlguard.Error)) || errors.As(err, new(*kustbuild.ConfigError)) ||
		errors.As(err, new(*kustbuild.UnknownFieldsError)) || errors.As(err, new(*kustbuild.PatchTargetError)) {
		return &InputError{Field: "--overlay", Message: fmt.Sprintf("build overlay %s: %v", overlayName(opts.Overlay), err), Fix: "correct the file or field named above; konnectivity-bundle build DIR shows the same error"}
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

// settleIP is where render decides the bootstrap IP, once, from
// --bootstrap-ip (an address, auto, or none) and the overlay's spec as
// kustbuild.ReadSpec read it (nil: no KonnectivityBundle config, or one its
// generator will refuse in the build). auto detects an address of the
// overlay's family unless the overlay names one itself (its own address
// beats a guess), and says where the address came from. A disabled bundle
// needs no address.
func settleIP(d *deps, opts Options, spec *bundlev1.Spec) (netip.Addr, string, error) {
	flag := opts.BootstrapIP.Unmap() // as the CLI's parse hands it over
	if opts.AutoBootstrapIP {
		flag = netip.Addr{}
	}
	if spec == nil {
		ip, err := checkFlag(flag, "")
		return ip, "", err
	}
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
			return det.Addr, det.Source, nil
		}
	}
	ip, err := settleAgainst(opts, flag, *spec, enabled, fam)
	return ip, source, err
}

// settleAgainst is settleIP's rule once the flag is known: the flag's
// address alone is checked against the overlay's family; the overlay's own
// spec.bootstrapIP is parsed once (kustbuild.SettleBootstrapIP, which also
// holds a flag to agree with it), and then only its family is checked.
func settleAgainst(opts Options, flag netip.Addr, spec bundlev1.Spec, enabled bool, fam bootstrapip.Family) (netip.Addr, error) {
	if spec.BootstrapIP == "" {
		if !flag.IsValid() && enabled {
			return flag, inputSentencef("--bootstrap-ip", "pass the bootstrap node's IP or auto, or set spec.bootstrapIP in the overlay",
				"was not given, and overlay %s sets no spec.bootstrapIP: render needs the address agents dial", overlayName(opts.Overlay))
		}
		return checkFlag(flag, fam)
	}
	ip, err := kustbuild.SettleBootstrapIP(flag, spec)
	var conflict *kustbuild.BootstrapIPConflictError
	switch {
	case errors.As(err, &conflict):
		return ip, inputSentencef("--bootstrap-ip", "drop --bootstrap-ip to use the overlay's address, or pass the same address, or change spec.bootstrapIP in the overlay",
			"%s disagrees with overlay %s's spec.bootstrapIP %s", conflict.Flag, overlayName(opts.Overlay), conflict.Spec)
	case err != nil:
		return ip, err
	case !ip.IsValid():
		_, err := bootstrapip.Validate(spec.BootstrapIP, fam) // the overlay's own address is unusable: say why
		return ip, ipInputError("overlay spec.bootstrapIP", bootstrapip.AsError(err))
	}
	field := "--bootstrap-ip"
	if !flag.IsValid() {
		field = "overlay spec.bootstrapIP"
	}
	if err := bootstrapip.CheckFamily(ip, fam); err != nil {
		return netip.Addr{}, ipInputError(field, bootstrapip.AsError(err))
	}
	return ip, nil
}

// checkFlag is the one check of --bootstrap-ip's address in render, against
// the overlay's family when it is known. The CLI refused text that is no
// usable address as it read the flag; this applies the same rules to an
// Options value from any caller, and the family the flag could not know.
// The zero Addr (auto, or not given) passes as it is.
func checkFlag(flag netip.Addr, fam bootstrapip.Family) (netip.Addr, error) {
	if !flag.IsValid() {
		return flag, nil
	}
	if err := bootstrapip.Check(flag, fam); err != nil {
		return netip.Addr{}, ipInputError("--bootstrap-ip", bootstrapip.AsError(err))
	}
	return flag, nil
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
