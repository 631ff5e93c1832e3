package kustbuild

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/dispatch"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const localConfig = "config.kubernetes.io/local-config"

// generate runs generator configs the way kustomize's function runner does:
// the config is both the functionConfig and, marked local-config, the only
// input item; local-config items are dropped from the output.
func (f *fnFS) generate(dir string, configs []*yaml.RNode) ([]byte, error) {
	var out []*yaml.RNode
	for _, c := range configs {
		fn, _ := f.fns.Lookup(c.GetKind())
		if fn.Role != dispatch.Generator {
			//lint:ignore ST1005 the message ends with the kustomization field to use, "validators:".
			return nil, fmt.Errorf("%s %s is listed under generators: but is a validator; list it under validators:", c.GetKind(), c.GetName())
		}
		c, err := f.withImagePin(c)
		if err != nil {
			return nil, err
		}
		if c, err = f.withCertDir(dir, c); err != nil {
			return nil, err
		}
		if f.specOnly && c.GetKind() == bundle.Kind {
			return nil, f.readOwnSpec(c)
		}
		if err := f.flagProblem(c); err != nil {
			return nil, err
		}
		in, err := f.inputsFor(c)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", c.GetKind(), c.GetName(), err)
		}
		input := c.Copy()
		if err := input.PipeE(yaml.SetAnnotation(localConfig, "true")); err != nil {
			return nil, err
		}
		rl := &framework.ResourceList{FunctionConfig: c, Items: []*yaml.RNode{input}}
		if err := result.Collect(rl, fn.Factory(in).Process(rl)); err != nil {
			return nil, &configError{Kind: c.GetKind(), Name: c.GetName(), Err: err}
		}
		for _, item := range rl.Items {
			if item.GetAnnotations()[localConfig] != "true" {
				out = append(out, item)
			}
		}
	}
	var buf bytes.Buffer
	err := (&kio.ByteWriter{Writer: &buf}).Write(out)
	return buf.Bytes(), err
}

// runChecks runs validator configs on the resources they were listed with.
func (f *fnFS) runChecks(m resmap.ResMap, configs []*yaml.RNode) error {
	items, err := resourceNodes(m)
	if err != nil {
		return err
	}
	for _, c := range configs {
		fn, _ := f.fns.Lookup(c.GetKind())
		rl := &framework.ResourceList{FunctionConfig: c, Items: items}
		if err := result.Collect(rl, fn.Factory(bundle.Inputs{Getenv: f.getenv}).Process(rl)); err != nil {
			var found *result.Error
			if errors.As(err, &found) {
				return &ValidatorError{Kind: c.GetKind(), Name: c.GetName(), Findings: found.Results, Err: err}
			}
			return &configError{Kind: c.GetKind(), Name: c.GetName(), Err: err}
		}
		f.mu.Lock()
		f.notes = append(f.notes, rl.Results...)
		f.mu.Unlock()
	}
	return nil
}

// resourceNodes copies kustomize's resources (each already an RNode), so a
// function can neither change the build nor cost a YAML round trip.
func resourceNodes(m resmap.ResMap) ([]*yaml.RNode, error) {
	out := make([]*yaml.RNode, 0, m.Size())
	for _, r := range m.Resources() {
		out = append(out, r.RNode.Copy())
	}
	return out, nil
}

// configError is a generator config that its function refused: bad input
// in the kustomization, not a failure of the build.
type configError struct {
	Kind, Name string
	Err        error
}

func (e *configError) Error() string { return fmt.Sprintf("%s %s: %v", e.Kind, e.Name, e.Err) }

// Unwrap exposes the function's error.
func (e *configError) Unwrap() error { return e.Err }

// ValidatorError is a check the kustomization lists (a transformer or
// validator) that failed the bundle: its error findings, as render's own
// check would report them.
type ValidatorError struct {
	Kind, Name string
	Findings   framework.Results
	Err        error
}

// Error names the check once and says its error findings as every command
// says a finding (result.Text).
func (e *ValidatorError) Error() string {
	errs := result.Only(e.Findings, framework.Error)
	return fmt.Sprintf("%s %s found %d error(s):\n  %s", e.Kind, e.Name, len(errs), result.Lines(errs))
}

// Unwrap exposes the function's error.
func (e *ValidatorError) Unwrap() error { return e.Err }

// IsBadInput says err is a fault in what the kustomization holds rather
// than a failure of the build: YAML the guard refuses, a config its
// function refuses, a field the objects' types do not have (found by the
// build, or by a check the kustomization lists), a patch without its
// target, a remote base or file (RemoteError), a file outside the
// kustomization's directory, a FIFO or device in its place. render reports them all as bad input, whichever step found them.
func IsBadInput(err error) bool {
	if errors.As(err, new(*yamlguard.Error)) || errors.As(err, new(*configError)) ||
		errors.As(err, new(*UnknownFieldsError)) || errors.As(err, new(*untargetedPatchError)) ||
		errors.As(err, new(*RemoteError)) || errors.As(err, new(*OutsideFileError)) ||
		errors.As(err, new(*SpecialFileError)) {
		return true
	}
	var failed *ValidatorError
	if !errors.As(err, &failed) {
		return false
	}
	for _, r := range result.Only(failed.Findings, framework.Error) {
		if result.Rule(r) == check.UnknownFieldRule {
			return true
		}
	}
	return false
}

// withImagePin records the image a KonnectivityBundle config pins and
// returns the config to generate with (specImagePin); other kinds, and a
// config that does not decode (the generator names its fault), as they are.
func (f *fnFS) withImagePin(c *yaml.RNode) (*yaml.RNode, error) {
	if c.GetKind() != bundle.Kind {
		return c, nil
	}
	spec, err := decodeSpec(c)
	if err != nil {
		return c, nil
	}
	return f.specImagePin(c, spec)
}

// inputsFor is what config c generates with: the environment, the
// bootstrap IP and the proxy version. A KonnectivityBundle config's address
// is settled here (see settle), and the config's defaulted spec is recorded
// for the Model; the settled address goes to the generator as a netip.Addr
// and the version as a *proxyversion.Version, each becoming text only in
// the objects the generator writes.
// Other kinds take Options.BootstrapIP as it is. A config that does not
// decode is left to the generator, which names the field at fault.
func (f *fnFS) inputsFor(c *yaml.RNode) (bundle.Inputs, error) {
	in := bundle.Inputs{Getenv: f.getenv, BootstrapIP: f.ip.Addr, ProxyVersion: f.version, TLSProfile: f.tlsProfile, TLSProfileFrom: f.tlsProfileFrom}
	if c.GetKind() != bundle.Kind {
		return in, nil
	}
	spec, err := decodeSpec(c)
	if err != nil {
		return in, nil
	}
	if in.BootstrapIP, err = f.settle(f.ownSpec(*spec)); err != nil {
		return in, err
	}
	spec.DefaultWith(in)
	f.mu.Lock()
	if f.spec == nil {
		f.spec = spec
	}
	f.mu.Unlock()
	return in, nil
}

// settle decides a KonnectivityBundle config's address by the one policy:
// the address settled before the build as it is, for the config it was
// settled against (render), else bootstrapip.Settle. The zero Addr leaves
// it to the generator's own sources and checks.
func (f *fnFS) settle(own bundle.Spec) (netip.Addr, error) {
	return f.ip.For(bootstrapip.Given{Spec: own.BootstrapIP, Family: bootstrapip.Family(own.IPFamily), Enabled: *own.Enabled, Overlay: f.overlay})
}
