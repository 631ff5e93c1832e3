package render

import (
	"errors"
	"net/netip"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
)

// bootstrapIPFlag is the flag render's errors name for the address given.
const bootstrapIPFlag = "--bootstrap-ip"

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
			return flag, inputSentencef(bootstrapIPFlag, "pass --bootstrap-ip IP (the bootstrap node's address) or --bootstrap-ip auto, or set spec.bootstrapIP in the overlay",
				"was not given, and overlay %s sets no spec.bootstrapIP: render needs the address agents dial", overlayName(opts.Overlay)).usage()
		}
		return checkFlag(flag, fam)
	}
	ip, err := kustbuild.SettleBootstrapIP(flag, spec)
	var conflict *kustbuild.BootstrapIPConflictError
	switch {
	case errors.As(err, &conflict):
		return ip, inputSentencef(bootstrapIPFlag, "drop --bootstrap-ip to use the overlay's address, or pass the same address, or change spec.bootstrapIP in the overlay",
			"%s disagrees with overlay %s's spec.bootstrapIP %s", conflict.Flag, overlayName(opts.Overlay), conflict.Spec)
	case err != nil:
		return ip, err
	case !ip.IsValid():
		_, err := bootstrapip.Validate(spec.BootstrapIP, fam) // the overlay's own address is unusable: say why
		return ip, ipInputError("overlay spec.bootstrapIP", bootstrapip.AsError(err))
	}
	field := bootstrapIPFlag
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
		return netip.Addr{}, ipInputError(bootstrapIPFlag, bootstrapip.AsError(err))
	}
	return flag, nil
}

// detect is --bootstrap-ip auto for the overlay's family: the address and
// where it came from. bootstrapip.Detect validates what it finds for that
// family itself (the primary family of a dual-stack overlay, which it
// accepts), so render takes the address as it comes.
func detect(d *deps, opts Options, fam bootstrapip.Family) (bootstrapip.Detection, error) {
	det, err := d.detectIP(fam.Primary(), getenvOf(opts))
	if err != nil {
		return det, inputErrorf(bootstrapIPFlag, "pass the address explicitly", "auto: %v", err)
	}
	return det, nil
}
