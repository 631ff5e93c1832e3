package v1alpha1

import "github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/krmconfig"

// Decode parses a KonnectivityCheck config strictly (see krmconfig.Decode):
// a misspelt field is an error naming it, so a typo cannot silently turn a
// check off.
func Decode(data []byte) (*KonnectivityCheck, error) {
	var cfg KonnectivityCheck
	if err := krmconfig.Decode(data, APIVersion, Kind, &cfg); err != nil {
		return nil, err
	}
	return &cfg, nil
}
