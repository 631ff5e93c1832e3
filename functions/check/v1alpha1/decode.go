package v1alpha1

import (
	"fmt"

	"sigs.k8s.io/yaml"
)

// Decode parses a KonnectivityCheck config strictly: an unknown or misspelt
// field is an error naming it, so a typo cannot silently turn a check off.
func Decode(data []byte) (*KonnectivityCheck, error) {
	var cfg KonnectivityCheck
	if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
		return nil, fmt.Errorf("%s config: %w (fields: spec.allowMissingClusterCA, spec.allowEmpty, spec.certDir)", Kind, err)
	}
	if cfg.APIVersion != APIVersion || cfg.Kind != Kind {
		return nil, fmt.Errorf("%s config: got apiVersion %q kind %q (fix: use apiVersion: %s and kind: %s)", Kind, cfg.APIVersion, cfg.Kind, APIVersion, Kind)
	}
	return &cfg, nil
}
