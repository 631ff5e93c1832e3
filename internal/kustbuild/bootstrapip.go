package kustbuild

import (
	"fmt"
	"net/netip"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bootstrapip"
)

// BootstrapIPConflictError is a --bootstrap-ip that disagrees with the
// overlay's own spec.bootstrapIP.
type BootstrapIPConflictError struct {
	Flag, Spec string
}

func (e *BootstrapIPConflictError) Error() string {
	return fmt.Sprintf("--bootstrap-ip %s disagrees with the overlay's spec.bootstrapIP %s (fix: drop --bootstrap-ip to use the overlay's address, or pass the same address, or change spec.bootstrapIP in the overlay)",
		e.Flag, e.Spec)
}

// SettleBootstrapIP is the one rule for the address a KonnectivityBundle
// config generates with, given --bootstrap-ip (flag, parsed by
// bootstrapip.Validate; the zero Addr when not given) and the config's spec
// (defaulted except for bootstrapIP, which is the config's own or ""). When
// both name an address they must be the same one (neither silently wins);
// either alone is used. The zero Addr leaves the address to the environment,
// or an unusable spec.bootstrapIP to the generator, which names what is wrong
// with it; the generator also checks the address against spec.ipFamily.
func SettleBootstrapIP(flag netip.Addr, spec bundle.Spec) (netip.Addr, error) {
	if spec.BootstrapIP == "" {
		return flag, nil
	}
	own, err := bootstrapip.Validate(spec.BootstrapIP, "")
	switch {
	case !flag.IsValid() && err != nil:
		return netip.Addr{}, nil
	case !flag.IsValid():
		return own, nil
	case err != nil || own != flag.Unmap():
		return netip.Addr{}, &BootstrapIPConflictError{Flag: flag.String(), Spec: spec.BootstrapIP}
	}
	return own, nil
}
