package krmconfig

import (
	"errors"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
)

// guard runs the YAML guard on a config and reports a refusal as a field
// error, so a duplicate or non-scalar key names its field like any other
// problem (JSON conversion would fail with a message that names none).
func guard(data []byte) error {
	err := yamlguard.Check(data)
	var ge *yamlguard.Error
	if !errors.As(err, &ge) || errors.Is(err, yamlguard.ErrNotYAML) {
		return nil // valid, or a syntax error the YAML parser reports below
	}
	field := ge.Path
	if field == "" {
		field = "(top level)"
	}
	return FieldErrors{{Field: field, Message: ge.Message, Fix: guardFix(ge.Limit)}}
}

func guardFix(l yamlguard.Limit) string {
	switch l {
	case yamlguard.LimitDuplicate:
		return "keep one of the two keys"
	case yamlguard.LimitComplexKey:
		return "write the key as a plain string"
	}
	return "write the config without aliases or deep nesting"
}
