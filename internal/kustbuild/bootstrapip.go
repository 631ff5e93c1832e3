package kustbuild

import (
	"fmt"
	"net/netip"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// ResolveBootstrapIP is the one rule for a bootstrap IP given both as a flag
// (--bootstrap-ip) and in an overlay's config (spec.bootstrapIP): when both
// are set they must name the same address, else it is an error naming both
// (neither silently wins); when only one is set, it is used.
func ResolveBootstrapIP(flagValue, specValue string) (string, error) {
	switch {
	case flagValue == "":
		return specValue, nil
	case specValue == "" || sameAddress(flagValue, specValue):
		return flagValue, nil
	}
	return "", fmt.Errorf("--bootstrap-ip %s and the overlay's spec.bootstrapIP %s disagree "+
		"(fix: drop --bootstrap-ip to use %s, or change or delete spec.bootstrapIP in the overlay's config)", flagValue, specValue, specValue)
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
// generator config before it runs.
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
