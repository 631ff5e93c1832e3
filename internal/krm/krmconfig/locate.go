package krmconfig

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/fieldhint"
)

// locateError finds the field whose value a type's own decoder (a
// resource.Quantity, say) refuses, by decoding each such leaf on its own:
// json.Unmarshal reports those errors without the field's path.
func locateError(node any, t reflect.Type, path string) *FieldError {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshaler) {
		raw, err := json.Marshal(node)
		if err != nil {
			return nil
		}
		if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
			return leafError(path, node, t, err)
		}
		return nil
	}
	switch v := node.(type) {
	case map[string]any:
		return locateInMap(v, t, path)
	case []any:
		if t.Kind() != reflect.Slice {
			return nil
		}
		for i, item := range v {
			if fe := locateError(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); fe != nil {
				return fe
			}
		}
	}
	return nil
}

func locateInMap(m map[string]any, t reflect.Type, path string) *FieldError {
	var fields map[string]reflect.Type
	switch t.Kind() {
	case reflect.Struct:
		fields = fieldhint.JSONFields(t)
	case reflect.Map:
	default:
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ft := t
		if fields != nil {
			var ok bool
			if ft, ok = fields[k]; !ok {
				continue
			}
		} else {
			ft = t.Elem()
		}
		if fe := locateError(m[k], ft, join(path, k)); fe != nil {
			return fe
		}
	}
	return nil
}

// leafError says what the value should look like; a quantity's own error
// is a bare regular expression, so it gets examples instead.
func leafError(path string, value any, t reflect.Type, err error) *FieldError {
	if t.Name() == "Quantity" {
		return &FieldError{Field: path, Message: fmt.Sprintf("%v is not a Kubernetes quantity", jsonText(value)),
			Fix: "write a quantity such as 100m or 0.5 (CPU) or 64Mi or 1Gi (memory)"}
	}
	return &FieldError{Field: path, Message: fmt.Sprintf("%v is not a valid %s: %v", jsonText(value), t.Name(), err),
		Fix: "write the value as the field's type expects"}
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
