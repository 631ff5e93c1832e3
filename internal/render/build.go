package render

import (
	"errors"
	"fmt"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/yamlguard"
)

// settledIP is the bootstrap IP the generator used and, for
// --bootstrap-ip auto, where it came from.
type settledIP struct {
	addr, source string
}

// buildModel builds the overlay once and returns its objects with the
// bootstrap IP the generator used. The IP is settled when the build reaches
// the overlay's config, so the overlay's own spec.bootstrapIP and ipFamily
// count without a second build.
func buildModel(d *deps, opts Options) (*kustbuild.Model, settledIP, error) {
	var settled settledIP
	kopts := kustbuild.Options{Image: opts.Image, Getenv: getenvOf(opts),
		BootstrapIPFor: func(spec bundlev1.Spec) (string, error) {
			var err error
			settled, err = settleIP(d, opts, spec)
			return settled.addr, err
		}}
	m, err := d.build(opts.Overlay, kopts)
	if err != nil {
		var input *InputError
		if errors.As(err, &input) {
			return nil, settled, input // already says which flag or field to change
		}
		var unknown *kustbuild.UnknownTargetError
		if errors.As(err, &unknown) {
			return nil, settled, inputErrorf("--overlay", "give a kustomization directory or an overlay name", "%v", unknown)
		}
		// Hostile YAML and a generator config its function refuses are bad input (exit 3).
		if errors.As(err, new(*yamlguard.Error)) || errors.As(err, new(*kustbuild.ConfigError)) {
			return nil, settled, &InputError{Field: "--overlay", Message: fmt.Sprintf("build overlay %s: %v", overlayName(opts.Overlay), err), Fix: "correct the file or field named above; konnectivity-bundle build DIR shows the same error"}
		}
		return nil, settled, fmt.Errorf("build overlay %s: %w", overlayName(opts.Overlay), err)
	}
	if settled.addr == "" && opts.BootstrapIP != AutoIP {
		settled.addr = opts.BootstrapIP // a target without our generator
	}
	return m, settled, nil
}

// getenvOf never returns nil: a nil Getenv means no environment, where the
// build would otherwise fall back to the process's.
func getenvOf(opts Options) func(string) string {
	if opts.Getenv == nil {
		return func(string) string { return "" }
	}
	return opts.Getenv
}

// settleIP applies kustbuild.ResolveBootstrapIP to --bootstrap-ip and the
// overlay's spec.bootstrapIP. auto detects an address of the overlay's
// family unless the overlay names one itself (its own address beats a
// guess). A disabled bundle needs no address. For auto it also says where
// the address came from, so render can tell the user.
func settleIP(d *deps, opts Options, spec bundlev1.Spec) (settledIP, error) {
	fam := familyIPv4 // dual-stack agents dial the primary family, IPv4 unless the overlay says ipv6
	if spec.IPFamily == familyIPv6 {
		fam = familyIPv6
	}
	enabled := spec.Enabled == nil || *spec.Enabled
	flag, source := opts.BootstrapIP, ""
	if flag == AutoIP {
		source = "the overlay's spec.bootstrapIP (auto detects only when the overlay names none)"
		if flag = ""; spec.BootstrapIP == "" && enabled {
			detected, from, err := detect(d, opts, fam)
			if err != nil {
				return settledIP{}, err
			}
			flag, source = detected, from
		}
	}
	raw, err := kustbuild.ResolveBootstrapIP(flag, spec.BootstrapIP)
	var conflict *kustbuild.BootstrapIPConflictError
	if errors.As(err, &conflict) {
		return settledIP{}, inputSentencef("--bootstrap-ip", "drop --bootstrap-ip to use the overlay's address, or pass the same address, or change spec.bootstrapIP in the overlay",
			"%s disagrees with overlay %s's spec.bootstrapIP %s", conflict.Flag, overlayName(opts.Overlay), conflict.Spec)
	}
	if err != nil {
		return settledIP{}, err
	}
	field := "--bootstrap-ip"
	switch {
	case raw == "" && !enabled:
		return settledIP{}, nil
	case raw == "":
		return settledIP{}, inputSentencef(field, "pass the bootstrap node's IP or auto, or set spec.bootstrapIP in the overlay",
			"was not given, and overlay %s sets no spec.bootstrapIP: render needs the address agents dial", overlayName(opts.Overlay))
	case flag == "":
		field = "overlay spec.bootstrapIP"
	}
	ip, err := checkIP(field, raw, fam)
	if err != nil {
		return settledIP{}, err
	}
	return settledIP{addr: ip.String(), source: source}, nil
}

// detect is --bootstrap-ip auto for the overlay's family: the address and
// where it came from.
func detect(d *deps, opts Options, fam string) (string, string, error) {
	raw, source, err := d.detectIP(fam, getenvOf(opts))
	if err != nil {
		return "", "", inputErrorf("--bootstrap-ip", "pass the address explicitly", "auto: %v", err)
	}
	ip, err := checkIP("--bootstrap-ip", raw, fam)
	var bad *InputError
	if errors.As(err, &bad) {
		return "", "", inputErrorf(bad.Field, "pass the address explicitly", "auto detected %s (%s), which cannot be used: %s", raw, source, bad.Message)
	}
	return ip.String(), source, err
}

func overlayName(o string) string {
	if o == "" {
		return kustbuild.DefaultOverlay
	}
	return o
}
