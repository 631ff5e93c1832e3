// Package krmconfig decodes KRM function configs strictly and reports
// problems per field, so every function in this module names the exact
// field and its fix the same way.
package krmconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/fieldhint"
	"sigs.k8s.io/yaml"
)

// Decode parses a config into out (a pointer to a struct with apiVersion
// and kind fields) strictly: an unknown or misspelled field is an error that
// names its full path and the closest known field; a value of the wrong type
// names its field. The apiVersion and kind must be the given ones. A
// duplicate or non-scalar key, or input over the YAML guard's limits, is an
// error naming its field.
func Decode(data []byte, apiVersion, kind string, out any) error {
	if err := guard(data); err != nil {
		return err
	}
	raw, err := yaml.YAMLToJSON(data)
	if err != nil {
		return fmt.Errorf("%s config is not valid YAML: %w", kind, err)
	}
	var tree map[string]any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return fmt.Errorf("%s config must be a YAML mapping: %w", kind, err)
	}
	if got, _ := tree["apiVersion"].(string); got != apiVersion || tree["kind"] != kind {
		return FieldErrors{{Field: "apiVersion/kind", Message: fmt.Sprintf("got %v %v", tree["apiVersion"], tree["kind"]), Fix: "use apiVersion: " + apiVersion + " and kind: " + kind}}
	}
	if errs := unknownFields(tree, reflect.TypeOf(out).Elem(), ""); len(errs) > 0 {
		return errs
	}
	if err := json.Unmarshal(raw, out); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return FieldErrors{{Field: te.Field, Message: fmt.Sprintf("got %s, want %s", Article(te.Value), Article(te.Type.String())), Fix: "write the value as " + Article(te.Type.String())}}
		}
		if fe := locateError(tree, reflect.TypeOf(out).Elem(), ""); fe != nil {
			return FieldErrors{*fe}
		}
		return fmt.Errorf("decoding %s config: %w", kind, err)
	}
	return nil
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

// unknownFields walks a decoded JSON tree along a Go type and reports every
// key the type has no field for. Types with their own decoding (quantities)
// and maps are leaves.
func unknownFields(node any, t reflect.Type, path string) FieldErrors {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshaler) {
		return nil
	}
	switch v := node.(type) {
	case map[string]any:
		if t.Kind() != reflect.Struct {
			return nil
		}
		return unknownStructFields(v, t, path)
	case []any:
		if t.Kind() != reflect.Slice {
			return nil
		}
		var errs FieldErrors
		for i, item := range v {
			errs = append(errs, unknownFields(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
		return errs
	}
	return nil
}

func unknownStructFields(m map[string]any, t reflect.Type, path string) FieldErrors {
	fields := fieldhint.JSONFields(t)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs FieldErrors
	for _, k := range keys {
		child := join(path, k)
		ft, ok := fields[k]
		if !ok {
			errs = append(errs, FieldError{Field: child, Message: "unknown field", Fix: fieldhint.Hint(t, path, k)})
			continue
		}
		errs = append(errs, unknownFields(m[k], ft, child)...)
	}
	return errs
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Article prefixes a type name (a JSON or Go type, an apiVersion and kind)
// with "a" or "an", as it is read aloud from its first letter.
func Article(typ string) string {
	if typ != "" && strings.ContainsRune("aeiou", rune(typ[0])) {
		return "an " + typ
	}
	return "a " + typ
}
