package v1alpha1

import "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/krmconfig"

// FieldError is one invalid field, with the fix.
type FieldError = krmconfig.FieldError

// FieldErrors is every problem found in one config.
type FieldErrors = krmconfig.FieldErrors

// Decode parses a KonnectivityBundle strictly (see krmconfig.Decode).
func Decode(data []byte) (*KonnectivityBundle, error) {
	var cfg KonnectivityBundle
	if err := krmconfig.Decode(data, APIVersion, Kind, &cfg); err != nil {
		return nil, err
	}
	return &cfg, nil
}
