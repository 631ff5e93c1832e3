package v1alpha1

import (
	"reflect"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestEveryProtectionHasOneField: each row of proxyversion.Protections is
// named by the protection tag of exactly one ServerSpec field, a field the
// spec decodes (a JSON name), and no tag names a flag that is no row.
func TestEveryProtectionHasOneField(t *testing.T) {
	typ := reflect.TypeFor[ServerSpec]()
	fields := map[string][]string{}
	for f := range typ.Fields() {
		if flag, ok := f.Tag.Lookup(protectionTag); ok {
			fields[flag] = append(fields[flag], f.Name)
		}
	}
	rows := map[string]bool{}
	for _, p := range proxyversion.Protections {
		rows[p.Flag] = true
		if got := fields[p.Flag]; len(got) != 1 {
			t.Errorf("--%s: ServerSpec fields tagged %s:%q are %v, want exactly one", p.Flag, protectionTag, p.Flag, got)
			continue
		}
		if protectionName(p) == "" {
			t.Errorf("--%s: its field %s has no JSON name", p.Flag, fields[p.Flag][0])
		}
	}
	for flag, names := range fields {
		if !rows[flag] {
			t.Errorf("ServerSpec %v tagged %s:%q, which is no row of proxyversion.Protections", names, protectionTag, flag)
		}
	}
}

// TestEveryProtectionDefaultsByVersion: defaulting for a version with the
// flag sets the protection's field to the row's default, and for one
// without leaves it unset.
func TestEveryProtectionDefaultsByVersion(t *testing.T) {
	for _, v := range proxyversion.Versions {
		s := Spec{ProxyVersion: v.Name, BootstrapIP: "192.0.2.10"}
		s.Default(nil)
		for _, p := range proxyversion.Protections {
			set := !s.Server.protectionField(p).IsZero()
			switch {
			case v.Has(p.Flag) && s.Server.Protection(p) != p.Default:
				t.Errorf("%s: %s defaults to %q, want the row's %q", v, protectionPath(p), s.Server.Protection(p), p.Default)
			case !v.Has(p.Flag) && set:
				t.Errorf("%s has no --%s, yet %s defaults to %q", v, p.Flag, protectionPath(p), s.Server.Protection(p))
			}
		}
	}
}
