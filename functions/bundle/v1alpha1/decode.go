package v1alpha1

import (
	"fmt"
	"net/netip"

	"sigs.k8s.io/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krmconfig"
)

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
	if errs := explicitZeroPorts(data); len(errs) > 0 {
		return nil, errs
	}
	return &cfg, nil
}

// portFields are the port fields under spec.server and spec.agent.
var portFields = map[string][]string{
	"server": {"agentPort", "healthPort", "adminPort"},
	"agent":  {"healthPort", "adminPort"},
}

// explicitZeroPorts refuses a port written as 0. Decoded, 0 is the zero
// value that means "use the default", so `agentPort: 0` would silently
// become 8091; only the raw tree can tell it from an absent field.
func explicitZeroPorts(data []byte) FieldErrors {
	var tree struct {
		Spec map[string]any `json:"spec"`
	}
	if yaml.Unmarshal(data, &tree) != nil {
		return nil // krmconfig.Decode accepted it; a shape this misses has no ports
	}
	var errs FieldErrors
	for _, part := range []string{"server", "agent"} {
		fields, _ := tree.Spec[part].(map[string]any)
		for _, f := range portFields[part] {
			if v, ok := fields[f]; ok && fmt.Sprint(v) == "0" {
				errs = append(errs, FieldError{Field: "spec." + part + "." + f, Message: "port 0 is not a port; 0 does not mean the default here",
					Fix: "omit the field for the default, or pick a port between 1024 and 49151"})
			}
		}
	}
	return errs
}

// Inputs are the runtime values a config is resolved with.
type Inputs struct {
	// Getenv supplies what the config leaves unset (EnvBootstrapIP,
	// EnvImage); nil is an empty environment.
	Getenv func(string) string
	// BootstrapIP, when valid, is the address the caller resolved (render,
	// or a build's --bootstrap-ip) against the config's own
	// spec.bootstrapIP: it is the spec's address, and the environment is
	// not asked for one.
	BootstrapIP netip.Addr
}

// Resolve decodes, defaults and validates a config. The spec's bootstrapIP
// comes out in canonical form.
func Resolve(config []byte, in Inputs) (*Spec, error) {
	cfg, err := Decode(config)
	if err != nil {
		return nil, err
	}
	cfg.Spec.Default(in.Getenv)
	if in.BootstrapIP.IsValid() {
		cfg.Spec.BootstrapIP = in.BootstrapIP.String()
	}
	if err := cfg.Spec.validate(in.BootstrapIP); err != nil {
		return nil, err
	}
	return &cfg.Spec, nil
}
