package v1alpha1

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// FieldError is a problem with one field of the config.
type FieldError struct {
	Field   string // path such as spec.keySize
	Message string
	Fix     string
}

func (e *FieldError) Error() string {
	msg := e.Field + ": " + e.Message
	if e.Fix != "" {
		msg += " (fix: " + e.Fix + ")"
	}
	return msg
}

// Decode parses a KonnectivityCerts config strictly: every unknown field is
// reported with its path.
func Decode(data []byte) (*KonnectivityCerts, error) {
	raw, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s config is not valid YAML: %w", Kind, err)
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, fmt.Errorf("%s config: %w", Kind, err)
	}
	if unknown := unknownFields(tree, reflect.TypeFor[KonnectivityCerts](), ""); len(unknown) > 0 {
		return nil, errors.Join(unknown...)
	}
	var cfg KonnectivityCerts
	if err := json.Unmarshal(raw, &cfg); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, &FieldError{Field: te.Field, Message: fmt.Sprintf("got a %s, want a %s", te.Value, te.Type)}
		}
		return nil, fmt.Errorf("%s config: %w", Kind, err)
	}
	if cfg.APIVersion != APIVersion || cfg.Kind != Kind {
		return nil, &FieldError{Field: "apiVersion/kind", Message: fmt.Sprintf("got %s %s", cfg.APIVersion, cfg.Kind),
			Fix: "use apiVersion: " + APIVersion + " and kind: " + Kind}
	}
	return &cfg, nil
}

// unknownFields walks a JSON tree along a struct type; maps and scalars
// are leaves.
func unknownFields(node any, t reflect.Type, path string) []error {
	m, ok := node.(map[string]any)
	if !ok || t.Kind() != reflect.Struct {
		return nil
	}
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		fields[name] = t.Field(i).Type
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs []error
	for _, k := range keys {
		child := strings.TrimPrefix(path+"."+k, ".")
		ft, ok := fields[k]
		if !ok {
			errs = append(errs, &FieldError{Field: child, Message: "unknown field", Fix: "known fields: " + knownNames(fields)})
			continue
		}
		errs = append(errs, unknownFields(m[k], ft, child)...)
	}
	return errs
}

func knownNames(fields map[string]reflect.Type) string {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
