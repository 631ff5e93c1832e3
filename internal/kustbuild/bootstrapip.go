package kustbuild

import (
	"fmt"
	"net/netip"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
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
// (--bootstrap-ip) and in an overlay's config (spec.bootstrapIP): when both
// are set they must name the same address, else the error names both
// (neither silently wins); when only one is set it is used; when neither
// is, the result is "" and the caller decides whether that is an error.
func ResolveBootstrapIP(flagValue, specValue string) (string, error) {
	switch {
	case flagValue == "":
		return specValue, nil
	case specValue == "" || sameAddress(flagValue, specValue):
		return flagValue, nil
	}
	return "", &BootstrapIPConflictError{Flag: flagValue, Spec: specValue}
}

// sameAddress compares parsed addresses (2001:DB8::10 is 2001:db8::10), and
// the text when either does not parse (the generator reports that).
func sameAddress(a, b string) bool {
	x, err1 := netip.ParseAddr(a)
	y, err2 := netip.ParseAddr(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	return x.Unmap() == y.Unmap()
}

// checkBootstrapIP applies ResolveBootstrapIP to a KonnectivityBundle
// generator config before it runs (build and diff; render settles the
// address through Options.BootstrapIPFor instead).
func checkBootstrapIP(c *yaml.RNode, flagValue string) error {
	if flagValue == "" || c.GetKind() != bundle.Kind {
		return nil
	}
	n, err := c.Pipe(yaml.Lookup("spec", "bootstrapIP"))
	if err != nil || n == nil {
		return err
	}
	_, err = ResolveBootstrapIP(flagValue, yaml.GetValue(n))
	return err
}
