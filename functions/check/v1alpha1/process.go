package v1alpha1

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Processor returns the validator. It leaves rl.Items untouched, records
// the findings in rl.Results, and returns their result.Err when any is an
// error, so the process exits non-zero (framework.Execute alone exits 0 and
// kustomize ignores results). It takes nothing: the check reads only its
// config and the resources.
func Processor() framework.ResourceListProcessor {
	return framework.ResourceListProcessorFunc(process)
}

func process(rl *framework.ResourceList) error {
	opts, err := options(rl.FunctionConfig)
	if err != nil {
		return err
	}
	results := result.Function(check.CheckNodes(rl.Items, opts), rl.Items)
	rl.Results = append(rl.Results, results...)
	return result.Err(results, errorText)
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

// errorText words the error results for kustomize to show from stderr, one
// per line under a count.
func errorText(rs framework.Results) string {
	var lines []string
	for _, r := range result.Only(rs, framework.Error) {
		line := "[" + result.Rule(r) + "] "
		if r.ResourceRef != nil {
			line += r.ResourceRef.Kind + " " + r.ResourceRef.Name + " "
		}
		if p := result.FieldPath(r); p != "" {
			line += p + ": "
		}
		lines = append(lines, line+r.Message)
	}
	return fmt.Sprintf("%s found %d error(s):\n%s", Kind, len(lines), strings.Join(lines, "\n"))
}
