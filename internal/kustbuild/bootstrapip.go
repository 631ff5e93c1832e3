package kustbuild

import (
	"fmt"
	"net/netip"
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

// ResolveBootstrapIP is the one rule for a bootstrap IP given both as a flag
// and in an overlay's spec.bootstrapIP: when both are set they must name the
// same address, else the error names both values; when only one is set it
// is used; when neither is, the result is "" and the caller decides whether
// that is an error. The flag is never silently ignored.
func ResolveBootstrapIP(flagValue, specValue string) (string, error) {
	switch {
	case flagValue == "":
		return specValue, nil
	case specValue == "", sameAddress(flagValue, specValue):
		return flagValue, nil
	}
	return "", &BootstrapIPConflictError{Flag: flagValue, Spec: specValue}
}

// sameAddress compares addresses, so 2001:DB8::1 and 2001:db8::1 agree;
// values that are not addresses compare as text and fail validation later.
func sameAddress(a, b string) bool {
	pa, errA := netip.ParseAddr(a)
	pb, errB := netip.ParseAddr(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return pa == pb
}
