package v1alpha1

import (
	"fmt"
	"net/netip"

	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/krmconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// FieldErrors is every problem found in one config, each field with its
// fix: krmconfig's, re-exported so that a caller can take Decode's and
// Resolve's errors apart (errors.As), as internal/krm/krmconfig cannot be
// imported from outside this module.
type FieldErrors = krmconfig.FieldErrors

// Decode parses a KonnectivityBundle strictly (see krmconfig.Decode).
func Decode(data []byte) (*KonnectivityBundle, error) {
	var cfg KonnectivityBundle
	if err := krmconfig.Decode(data, APIVersion, Kind, &cfg); err != nil {
		return nil, err
	}
	if errs := explicitZeros(data); len(errs) > 0 {
		return nil, errs
	}
	return &cfg, nil
}

// zeroRefused are the integer fields under spec.server and spec.agent where
// a written 0 is refused, with what 0 would mean and the fix: the ports,
// and the protections that say why (proxyversion.Protection.Zero).
var zeroRefused = map[string][]zeroField{
	"server": append([]zeroField{portZero("agentPort"), portZero("healthPort"), portZero("adminPort")}, protectionZeros()...),
	"agent":  {portZero("healthPort"), portZero("adminPort")},
}

func protectionZeros() []zeroField {
	var out []zeroField
	for _, p := range proxyversion.Protections {
		if p.Zero != "" {
			out = append(out, zeroField{protectionName(p), p.Zero, "omit the field for the default, or give at least 1"})
		}
	}
	return out
}

type zeroField struct{ name, message, fix string }

func portZero(name string) zeroField {
	return zeroField{name, "port 0 is not a port; 0 does not mean the default here",
		"omit the field for the default, or pick a port between 1024 and 49151"}
}

// explicitZeros refuses such a field written as 0. Decoded, 0 is the zero
// value that means "use the default", so `agentPort: 0` would silently
// become 8091; only the raw tree can tell it from an absent field.
func explicitZeros(data []byte) FieldErrors {
	var tree struct {
		Spec map[string]any `json:"spec"`
	}
	if yaml.Unmarshal(data, &tree) != nil {
		return nil // krmconfig.Decode accepted it; a shape this misses has no such field
	}
	var errs FieldErrors
	for _, part := range []string{"server", "agent"} {
		fields, _ := tree.Spec[part].(map[string]any)
		for _, f := range zeroRefused[part] {
			if v, ok := fields[f.name]; ok && fmt.Sprint(v) == "0" {
				errs = append(errs, krmconfig.FieldError{Field: "spec." + part + "." + f.name, Message: f.message, Fix: f.fix})
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
	// spec.bootstrapIP and validated (bootstrapip.Validate or Check): it is
	// the spec's address, the environment is not asked for one, and only
	// its family is checked here, against spec.ipFamily.
	BootstrapIP netip.Addr
	// ProxyVersion, when set, is the version the caller was told (render's
	// or a build's --proxy-version), handed over as itself: it stands where
	// the environment's EnvProxyVersion would (Spec.DefaultWith). nil leaves
	// the target to the config, the environment and the image's tag.
	ProxyVersion *proxyversion.Version
	// TLSProfile, when set, is the cluster's TLS security profile the
	// caller read from the install's APIServer manifest (render, on the
	// bootstrap host), and TLSProfileFrom that manifest's path: it stands
	// where an absent spec.tlsSecurityProfile would mean Intermediate.
	TLSProfile     *configv1.TLSSecurityProfile
	TLSProfileFrom string
}

// Resolve decodes, defaults and validates a config. The spec's bootstrapIP
// comes out in canonical form: in.BootstrapIP when valid, else the config's
// own or the environment's.
func Resolve(config []byte, in Inputs) (*Spec, error) {
	cfg, err := Decode(config)
	if err != nil {
		return nil, err
	}
	cfg.Spec.DefaultWith(in)
	if err := cfg.Spec.validate(in.BootstrapIP); err != nil {
		return nil, err
	}
	return &cfg.Spec, nil
}
