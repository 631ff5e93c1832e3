package kustbuild

import (
	"fmt"
	"slices"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FamilyError is --bootstrap-ip of a family the overlay's spec.ipFamily
// does not take: a usage error (IsFlagError), since the fix is on the
// command line for an embedded overlay (another overlay, or another
// address), worded once here for every command. The fix for an embedded overlay is
// the overlay of the address's family; for a kustomization of the user's,
// its config's spec.ipFamily.
type FamilyError struct {
	Addr      string
	Got, Want bootstrapip.Family
	Overlay   string // as messages name it
	Embedded  bool   // Overlay is one of the embedded overlays
}

// Message says the disagreement, after the flag's name.
func (e *FamilyError) Message() string {
	return fmt.Sprintf("%s is an %s address, but overlay %s is for %s", e.Addr, e.Got.Name(), e.Overlay, e.Want.Name())
}

// Fix says what to change: the overlay to build, or the field to set.
func (e *FamilyError) Fix() string {
	if e.Embedded && slices.Contains(Overlays(), string(e.Got)) {
		return fmt.Sprintf("build the %s overlay (or %s for both families), or give an %s address", e.Got, "dualstack", e.Want.Name())
	}
	return fmt.Sprintf("set spec.ipFamily: %s in overlay %s's KonnectivityBundle config, or give an %s address", e.Got, e.Overlay, e.Want.Name())
}

func (e *FamilyError) Error() string {
	return bootstrapip.FlagField + " " + e.Message() + " (fix: " + e.Fix() + ")"
}

// WrongFamily is the FamilyError of addr from --bootstrap-ip when target's
// ipFamily (want) does not take it, else nil.
func WrongFamily(addr string, got, want bootstrapip.Family, target string) *FamilyError {
	if got == want || want != bootstrapip.IPv4 && want != bootstrapip.IPv6 {
		return nil
	}
	fsys, _, err := resolve(target)
	_, embedded := fsys.(embeddedTree)
	return &FamilyError{Addr: addr, Got: got, Want: want, Overlay: overlayName(target), Embedded: err == nil && embedded}
}

// familyMismatch is WrongFamily for config c and the build's
// --bootstrap-ip, before the generator words it for spec.ipFamily, which
// the user did not write; nil for an address that came from anywhere else.
func (f *fnFS) familyMismatch(c *yaml.RNode) error {
	if c.GetKind() != bundle.Kind || !f.ip.Addr.IsValid() || f.ip.From != "" {
		return nil
	}
	spec, err := decodeSpec(c)
	if err != nil {
		return nil
	}
	own := f.ownSpec(*spec)
	if own.Enabled != nil && !*own.Enabled {
		return nil
	}
	got, want := bootstrapip.FamilyOf(f.ip.Addr), bootstrapip.Family(own.IPFamily)
	if got == want || want != bootstrapip.IPv4 && want != bootstrapip.IPv6 {
		return nil
	}
	return &FamilyError{Addr: f.ip.Addr.String(), Got: got, Want: want, Overlay: f.overlay, Embedded: f.immutable}
}
