package v1alpha1

import (
	"fmt"
	"io"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Processor returns the validator. It leaves rl.Items untouched, sets
// rl.Results to the findings, and returns an *ErrorResults error when any is
// an error, so the process exits non-zero (framework.Execute alone exits 0
// and kustomize ignores results). getenv is unused; it matches the
// dispatcher's factory signature.
func Processor(getenv func(string) string) framework.ResourceListProcessor {
	return framework.ResourceListProcessorFunc(process)
}

func process(rl *framework.ResourceList) error {
	opts, err := options(rl.FunctionConfig)
	if err != nil {
		return err
	}
	findings := check.CheckNodes(rl.Items, opts)
	results := Results(findings, rl.Items)
	rl.Results = append(rl.Results, results...)
	if HasErrors(results) {
		return &ErrorResults{Results: results}
	}
	return nil
}

func options(config *yaml.RNode) (check.Options, error) {
	if config == nil {
		return check.Options{}, fmt.Errorf("no functionConfig: give a %s %s config", APIVersion, Kind)
	}
	data, err := config.MarshalJSON()
	if err != nil {
		return check.Options{}, fmt.Errorf("%s config: %w", Kind, err)
	}
	cfg, err := Decode(data)
	if err != nil {
		return check.Options{}, err
	}
	opts := check.Options{AllowMissingClusterCA: cfg.Spec.AllowMissingClusterCA, AllowEmpty: cfg.Spec.AllowEmpty}
	if cfg.Spec.CertDir != "" {
		if opts.CertFiles, err = check.ReadCertDir(cfg.Spec.CertDir); err != nil {
			return check.Options{}, fmt.Errorf("%s spec.certDir: %w", Kind, err)
		}
	}
	return opts, nil
}

// Results turns findings into function results that name the resource (by
// the item it came from) and the field; the rule id is in Tags["rule"].
func Results(findings []check.Finding, items []*yaml.RNode) framework.Results {
	out := make(framework.Results, 0, len(findings))
	for _, f := range findings {
		msg := f.Message
		if f.Fix != "" {
			msg += " (fix: " + f.Fix + ")"
		}
		r := &framework.Result{Message: msg, Severity: severity(f.Severity), Tags: map[string]string{"rule": f.Rule}}
		r.ResourceRef = resourceRef(f.Object, items)
		if f.Field != "" {
			r.Field = &framework.Field{Path: f.Field}
		}
		out = append(out, r)
	}
	return out
}

func severity(s check.Severity) framework.Severity {
	if s == check.SeverityError {
		return framework.Error
	}
	return framework.Warning
}

// resourceRef finds the item a finding's "Kind namespace/name" names.
func resourceRef(object string, items []*yaml.RNode) *yaml.ResourceIdentifier {
	kind, rest, ok := strings.Cut(object, " ")
	if !ok {
		return nil
	}
	ns, name, hasNS := strings.Cut(rest, "/")
	if !hasNS {
		ns, name = "", rest
	}
	for _, it := range items {
		if it.GetKind() == kind && it.GetName() == name && it.GetNamespace() == ns {
			id := &yaml.ResourceIdentifier{}
			id.APIVersion, id.Kind, id.Name, id.Namespace = it.GetApiVersion(), kind, name, ns
			return id
		}
	}
	return nil
}

// HasErrors reports whether any result is an error.
func HasErrors(rs framework.Results) bool {
	for _, r := range rs {
		if r.Severity == framework.Error {
			return true
		}
	}
	return false
}

// ErrorResults is the error the processor returns when results hold errors;
// its text lists them, one per line, for kustomize to show from stderr.
type ErrorResults struct{ Results framework.Results }

func (e *ErrorResults) Error() string {
	var lines []string
	for _, r := range e.Results {
		if r.Severity != framework.Error {
			continue
		}
		line := "[" + r.Tags["rule"] + "] "
		if r.ResourceRef != nil {
			line += r.ResourceRef.Kind + " " + r.ResourceRef.Name + " "
		}
		if r.Field != nil {
			line += r.Field.Path + ": "
		}
		lines = append(lines, line+r.Message)
	}
	return fmt.Sprintf("%s found %d error(s):\n%s", Kind, len(lines), strings.Join(lines, "\n"))
}

// Run executes the validator on a ResourceList from in, writes the
// ResourceList with results to out, and returns an error when a result is an
// error, which the caller must turn into a non-zero exit.
func Run(in io.Reader, out io.Writer) error {
	rw := &kio.ByteReadWriter{Reader: in, Writer: out, KeepReaderAnnotations: true}
	return framework.Execute(Processor(nil), rw)
}
