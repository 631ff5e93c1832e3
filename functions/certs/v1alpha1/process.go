package v1alpha1

import (
	"errors"
	"fmt"
	"net/netip"
	"path"
	"time"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
)

// specFields maps certs.Options fields to config paths.
var specFields = map[string]string{
	"Dir": "spec.certDir", "BootstrapIP": "spec.bootstrapIP", "Validity": "spec.validity",
	"KeyAlgorithm": "spec.keyAlgorithm", "KeySize": "spec.keySize",
}

// Function is the KonnectivityCerts function with its outside world made
// explicit so tests can fix the environment and the clock.
type Function struct {
	Getenv func(string) string // nil: no environment
	// BootstrapIP, when valid, is an in-process build's --bootstrap-ip: the
	// address when the config sets none, ahead of the environment.
	BootstrapIP netip.Addr
	Now         func() time.Time // nil: time.Now
	// Generate plans the set in opts.Dir and writes what changed there, for
	// spec.generate. It is the journaled writer of the host writers
	// (internal/writers/certset.EnsureDir), which the binary hands over
	// (internal/cli, through internal/fnrun/dispatch): a KRM function
	// imports no host transaction. nil refuses spec.generate.
	Generate func(opts certs.Options) (*certs.Result, error)
}

// Process appends the agent Secret to rl.Items.
func (f Function) Process(rl *framework.ResourceList) error {
	config, err := rl.FunctionConfig.MarshalJSON()
	if err != nil {
		return fmt.Errorf("read %s function config: %w", Kind, err)
	}
	secret, err := f.secret(config)
	if err != nil {
		return result.FromError(err)
	}
	rl.Items = append(rl.Items, secret)
	return nil
}

func (f Function) secret(config []byte) (*kyaml.RNode, error) {
	cfg, err := Decode(config)
	if err != nil {
		return nil, err
	}
	s := cfg.Spec
	if s.BootstrapIP == "" && f.BootstrapIP.IsValid() {
		s.BootstrapIP = f.BootstrapIP.String()
	}
	s.Default(f.Getenv)
	opts, err := f.options(s)
	if err != nil {
		return nil, err
	}
	r, err := f.certificates(s, opts)
	if err != nil {
		return nil, err
	}
	return certs.AgentSecretNode(r, s.Namespace, s.SecretHostPath)
}

// options validates the spec as certs.Options, naming spec fields.
func (f Function) options(s Spec) (certs.Options, error) {
	if s.BootstrapIP == "" {
		return certs.Options{}, &FieldError{Field: "spec.bootstrapIP", Message: "not set",
			Fix: "set spec.bootstrapIP or the environment variable " + bundle.EnvBootstrapIP}
	}
	if !path.IsAbs(s.SecretHostPath) {
		return certs.Options{}, &FieldError{Field: "spec.secretHostPath", Message: fmt.Sprintf("%q is not absolute", s.SecretHostPath),
			Fix: "give a host path such as " + DefaultSecretHostPath}
	}
	ip, err := bootstrapip.Validate(s.BootstrapIP, "")
	if err != nil {
		return certs.Options{}, &FieldError{Field: "spec.bootstrapIP", Message: err.Error()}
	}
	opts := certs.Options{Dir: s.CertDir, BootstrapIP: ip, KeyAlgorithm: s.KeyAlgorithm, KeySize: s.KeySize, Now: f.Now}
	if s.Validity != "" {
		d, err := time.ParseDuration(s.Validity)
		if err != nil {
			return certs.Options{}, &FieldError{Field: "spec.validity", Message: fmt.Sprintf("%q is not a duration", s.Validity), Fix: `use a Go duration such as "24h"`}
		}
		opts.Validity = d
	}
	if err := opts.Validate(); err != nil {
		var fe *certs.FieldError
		if errors.As(err, &fe) {
			return certs.Options{}, &FieldError{Field: specFields[fe.Field], Message: fe.Err.Error()}
		}
		return certs.Options{}, err
	}
	return opts, nil
}

// certificates generates into the directory when asked, else insists that
// what is there can be used as is.
func (f Function) certificates(s Spec, opts certs.Options) (*certs.Result, error) {
	if s.Generate {
		if f.Generate == nil {
			return nil, &FieldError{Field: "spec.generate", Message: "this caller only reads: it writes no certificate directory (check, ports and diff never change the host)",
				Fix: "run konnectivity-bundle certs --dir " + s.CertDir + " first, or give it what konnectivity-bundle build (or kustomize build) of this kustomization prints"}
		}
		return f.Generate(opts)
	}
	r, err := certs.Plan(opts)
	if err != nil {
		return nil, err
	}
	if r.Generated {
		return nil, &FieldError{Field: "spec.certDir", Message: "certificates cannot be used: " + r.Reason,
			Fix: "set spec.generate: true, or run konnectivity-bundle certs --dir " + s.CertDir + " --bootstrap-ip " + s.BootstrapIP}
	}
	return r, nil
}
