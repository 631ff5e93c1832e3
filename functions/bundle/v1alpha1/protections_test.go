package v1alpha1

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestEveryProtectionHasItsField: each row of proxyversion.Protections
// names a ServerSpec field, which defaulting for a version with the flag
// sets to the row's default and for one without leaves unset.
func TestEveryProtectionHasItsField(t *testing.T) {
	for _, v := range proxyversion.Versions {
		s := Spec{ProxyVersion: v.Name, BootstrapIP: "192.0.2.10"}
		s.Default(nil)
		for _, p := range proxyversion.Protections {
			set := !s.Server.protectionField(p).IsZero()
			switch {
			case v.Has(p.Flag) && s.Server.Protection(p) != p.Default:
				t.Errorf("%s: %s defaults to %q, want the row's %q", v, p.Field, s.Server.Protection(p), p.Default)
			case !v.Has(p.Flag) && set:
				t.Errorf("%s has no --%s, yet %s defaults to %q", v, p.Flag, p.Field, s.Server.Protection(p))
			}
		}
	}
}
