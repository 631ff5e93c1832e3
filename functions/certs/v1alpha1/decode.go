package v1alpha1

import "github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/krmconfig"

// FieldError is a problem with one field of the config. The alias keeps
// Decode's errors part of this API: internal/krm/krmconfig cannot be imported
// from outside this module.
type FieldError = krmconfig.FieldError

// Decode parses a KonnectivityCerts config strictly (see krmconfig.Decode).
func Decode(data []byte) (*KonnectivityCerts, error) {
	var cfg KonnectivityCerts
	if err := krmconfig.Decode(data, APIVersion, Kind, &cfg); err != nil {
		return nil, err
	}
	return &cfg, nil
}
