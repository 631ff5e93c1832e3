package v1alpha1

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// The protection flags (proxyversion.Protections) know their flag and the
// versions that have it, not this config: each is rendered from the
// ServerSpec field whose protection tag names its flag, so a new
// protection is its row there and its tagged field here, and nothing else.

// protectionTag is the struct tag that ties a ServerSpec field to its flag.
const protectionTag = "protection"

// Protection is the value of the field protection p is rendered from,
// written as its flag takes it.
func (s *ServerSpec) Protection(p *proxyversion.Protection) string {
	return fmt.Sprint(s.protectionField(p).Interface())
}

// protectionField is the field tagged with p's flag.
func (s *ServerSpec) protectionField(p *proxyversion.Protection) reflect.Value {
	return reflect.ValueOf(s).Elem().Field(protectionIndex(p))
}

// protectionPath is the field p is rendered from, as the generator's
// errors name it: spec.server.<json name>.
func protectionPath(p *proxyversion.Protection) string {
	return "spec.server." + protectionName(p)
}

// protectionName is the JSON name of the field p is rendered from.
func protectionName(p *proxyversion.Protection) string {
	tag, _, _ := strings.Cut(reflect.TypeFor[ServerSpec]().Field(protectionIndex(p)).Tag.Get("json"), ",")
	return tag
}

// protectionIndex is the index of the ServerSpec field tagged with p's
// flag. A row with no such field is a programming error, which
// TestEveryProtectionHasOneField catches.
func protectionIndex(p *proxyversion.Protection) int {
	t := reflect.TypeFor[ServerSpec]()
	for i := range t.NumField() {
		if t.Field(i).Tag.Get(protectionTag) == p.Flag {
			return i
		}
	}
	panic(fmt.Sprintf("protection --%s has no ServerSpec field tagged %s:%q", p.Flag, protectionTag, p.Flag))
}

// defaultProtection sets p's field to its default when unset.
func (s *ServerSpec) defaultProtection(p *proxyversion.Protection) {
	f := s.protectionField(p)
	if !f.IsZero() {
		return
	}
	switch f.Kind() {
	case reflect.String:
		f.SetString(p.Default)
	case reflect.Int32:
		n, err := strconv.ParseInt(p.Default, 10, 32)
		if err != nil {
			panic(fmt.Sprintf("protection --%s: default %q is not an integer", p.Flag, p.Default))
		}
		f.SetInt(n)
	default:
		panic(fmt.Sprintf("protection --%s: field %s is a %s, not a string or int32", p.Flag, protectionPath(p), f.Kind()))
	}
}
