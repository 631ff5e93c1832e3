// Package dispatch routes a KRM function call to the function its config
// names, so one binary serves every kind in bundle.konnectivity.io.
package dispatch

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	bundlefn "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle"
	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	certsfn "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	certs "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs/v1alpha1"
	check "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/krmconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Factory makes a kind's processor from the runtime values: the environment
// and, in-process, the resolved bootstrap IP.
type Factory func(in bundle.Inputs) framework.ResourceListProcessor

// Role says how kustomize uses a kind, which decides the legacy plugin output.
type Role int

// Roles of a function kind.
const (
	Generator Role = iota
	Validator
)

// Function is one kind this binary serves.
type Function struct {
	Kind    string
	Role    Role
	Factory Factory
}

// CertWriter plans the certificate set in opts.Dir and writes what changed
// there: spec.generate of the KonnectivityCerts function.
type CertWriter func(opts certsfn.Options) (*certsfn.Result, error)

// Functions is every kind this binary serves, with what the binary hands
// the functions that write the host. Neither this package nor a function
// imports a host writer (the wing rules), so the command line wires the
// journaled one in (internal/cli); the zero value serves every kind and
// refuses spec.generate.
type Functions struct {
	WriteCerts CertWriter // the journaled writer of internal/writers/certset
}

// table is every kind served, a fixed table: each call builds it afresh,
// so no caller can change what the binary serves.
func (fs Functions) table() []Function {
	return []Function{
		{Kind: bundle.Kind, Role: Generator, Factory: bundlefn.Processor},
		{Kind: certs.Kind, Role: Generator, Factory: func(in bundle.Inputs) framework.ResourceListProcessor {
			return certs.Function{Getenv: in.Getenv, BootstrapIP: in.BootstrapIP, Generate: fs.WriteCerts}
		}},
		// The check reads nothing from the environment.
		{Kind: check.Kind, Role: Validator, Factory: func(bundle.Inputs) framework.ResourceListProcessor {
			return check.Processor()
		}},
	}
}

// Lookup returns the function for a kind.
func (fs Functions) Lookup(kind string) (Function, bool) {
	for _, f := range fs.table() {
		if f.Kind == kind {
			return f, true
		}
	}
	return Function{}, false
}

// Kinds lists the served kinds, sorted.
func Kinds() []string {
	var out []string
	for _, f := range (Functions{}).table() {
		out = append(out, f.Kind)
	}
	sort.Strings(out)
	return out
}

// processor routes by the function config's apiVersion and kind.
func (fs Functions) processor(getenv func(string) string) framework.ResourceListProcessor {
	return framework.ResourceListProcessorFunc(func(rl *framework.ResourceList) error {
		if rl.FunctionConfig == nil {
			return fmt.Errorf("no functionConfig in the ResourceList: give a %s config", strings.Join(Kinds(), ", "))
		}
		apiVersion, kind := rl.FunctionConfig.GetApiVersion(), rl.FunctionConfig.GetKind()
		f, ok := fs.Lookup(kind)
		if !ok || apiVersion != krmconfig.APIVersion {
			return fmt.Errorf("functionConfig is %s %s; this function serves apiVersion %s kinds %s",
				textsafe.Value(apiVersion), textsafe.Value(kind), krmconfig.APIVersion, strings.Join(Kinds(), ", "))
		}
		return f.Factory(bundle.Inputs{Getenv: getenv}).Process(rl)
	})
}

// Run executes the function on a ResourceList from in and writes the
// ResourceList, with results, to out. It returns an error when any result is
// an error: framework.Execute alone exits 0 then, and kustomize ignores
// results, so the caller must turn this into a non-zero exit.
func (fs Functions) Run(in io.Reader, out io.Writer, getenv func(string) string) error {
	input, err := readInput(in, "the ResourceList on stdin")
	if err != nil {
		return err
	}
	rw := &kio.ByteReadWriter{Reader: bytes.NewReader(input), Writer: out, KeepReaderAnnotations: true}
	return framework.Execute(failOnErrorResults(fs.processor(getenv)), rw)
}

// failOnErrorResults records the processor's results in the ResourceList
// (so they are written) and fails when any of them is an error.
func failOnErrorResults(p framework.ResourceListProcessor) framework.ResourceListProcessor {
	return framework.ResourceListProcessorFunc(func(rl *framework.ResourceList) error {
		return result.Collect(rl, p.Process(rl))
	})
}

// parseStream reads a plain multi-document YAML stream.
func parseStream(data []byte) ([]*yaml.RNode, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	return (&kio.ByteReader{Reader: bytes.NewReader(data), OmitReaderAnnotations: true}).Read()
}
