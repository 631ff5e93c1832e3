package v1alpha1

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// The protection flags (proxyversion.Protections) are rendered from
// ServerSpec fields that each row names by its JSON path, so that a new
// protection is its row and its field, and nothing here.

// serverFieldPrefix is where every protection's field lives.
const serverFieldPrefix = "spec.server."

// Protection is the value of the field protection p is rendered from,
// written as its flag takes it.
func (s *ServerSpec) Protection(p *proxyversion.Protection) string {
	return fmt.Sprint(s.protectionField(p).Interface())
}

// protectionField is the field p names: a ServerSpec field whose JSON name
// is the last part of p.Field. A row naming no such field is a programming
// error, which TestEveryProtectionHasItsField catches.
func (s *ServerSpec) protectionField(p *proxyversion.Protection) reflect.Value {
	name, ok := strings.CutPrefix(p.Field, serverFieldPrefix)
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		tag, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		if ok && tag == name {
			return v.Field(i)
		}
	}
	panic(fmt.Sprintf("protection --%s names %s, which is no field of ServerSpec", p.Flag, p.Field))
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
		panic(fmt.Sprintf("protection --%s: field %s is a %s, not a string or int32", p.Flag, p.Field, f.Kind()))
	}
}
