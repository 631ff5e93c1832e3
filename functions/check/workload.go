package check

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
)

// workload is a pod-running object whose container runs an ANP binary.
type workload struct {
	obj       *object
	spec      *corev1.PodSpec
	specField string // "spec" for a Pod, "spec.template.spec" otherwise
	index     int    // container index
	field     string // e.g. spec.containers[0]
	flags     *flagSet
}

func (w *workload) container() *corev1.Container { return &w.spec.Containers[w.index] }

// podSpecOf decodes the pod spec of a Pod or of a workload's template, once
// for all binaries. A spec that does not decode marks the object malformed
// when it was meant to run an ANP binary, so a broken server is reported
// instead of silently missing.
func podSpecOf(o *object) (*corev1.PodSpec, string) {
	if o.malformed != nil || o.kind == "" {
		return nil, ""
	}
	specField, path := "spec.template.spec", []string{"spec", "template", "spec"}
	if o.kind == "Pod" {
		specField, path = "spec", []string{"spec"}
	}
	specNode, err := o.node.Pipe(yaml.Lookup(path...))
	if err != nil || specNode == nil {
		return nil, ""
	}
	spec := &corev1.PodSpec{}
	if err := decodeInto(specNode, spec); err != nil {
		if mentionsBinary(specNode, anp.Server) || mentionsBinary(specNode, anp.Agent) {
			o.malformed = fmt.Errorf("%s: %w", specField, err)
		}
		return nil, ""
	}
	return spec, specField
}

// findWorkload returns the workload when a container of spec runs bin.
func findWorkload(o *object, spec *corev1.PodSpec, specField string, bin *anp.Binary) *workload {
	for i := range spec.Containers {
		c := &spec.Containers[i]
		argv := append(append([]string{}, c.Command...), c.Args...)
		if !bin.Runs(argv) {
			continue
		}
		field := fmt.Sprintf("%s.containers[%d]", specField, i)
		fields := argvFields(field, len(c.Command), len(c.Args))
		return &workload{obj: o, spec: spec, specField: specField, index: i, field: field,
			flags: parseFlags(bin, argv, fields)}
	}
	return nil
}

// mentionsBinary tells whether a pod spec that fails to decode was meant to run
// bin, so a broken server pod is reported instead of silently ignored.
func mentionsBinary(n *yaml.RNode, bin *anp.Binary) bool {
	s, err := n.String()
	return err == nil && strings.Contains(s, bin.Name)
}
