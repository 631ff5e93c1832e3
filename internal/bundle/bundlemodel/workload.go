package bundlemodel

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// Workload is a pod-running object whose container runs an ANP binary.
type Workload struct {
	Object    *Object
	Spec      *corev1.PodSpec
	SpecField string // "spec" for a Pod, "spec.template.spec" otherwise
	Index     int    // the container's index in Spec.Containers
	Field     string // where the container is written, e.g. spec.containers[0]
	Flags     *Flags // the container's command line as its binary reads it
}

// Container is the container that runs the binary.
func (w *Workload) Container() *corev1.Container { return &w.Spec.Containers[w.Index] }

// HostNetwork reports whether the pod uses the node's network namespace.
func (w *Workload) HostNetwork() bool { return w.Spec.HostNetwork }

// Port returns a port flag's value, or the binary's default when it is not
// given; a value that is not a port number is an error naming the flag.
func (w *Workload) Port(name string) (int, error) {
	v := w.Flags.ValueOr(name)
	p, ok := w.Flags.Int(name)
	if !ok || p < 0 || p > 65535 {
		return 0, fmt.Errorf("%s: --%s=%q is not a port number", w.Object.ID(), name, v)
	}
	return p, nil
}

// podSpecOf decodes the pod spec of a Pod or of a workload's template, once
// for all binaries. A spec that does not decode marks the object malformed
// when it was meant to run an ANP binary, so a broken server is reported
// instead of silently missing.
func podSpecOf(o *Object) (*corev1.PodSpec, string) {
	if o.Malformed != nil || o.Kind == "" {
		return nil, ""
	}
	specField, path := "spec.template.spec", []string{"spec", "template", "spec"}
	if o.Kind == "Pod" {
		specField, path = "spec", []string{"spec"}
	}
	specNode, err := o.Node.Pipe(yaml.Lookup(path...))
	if err != nil || specNode == nil {
		return nil, ""
	}
	spec := &corev1.PodSpec{}
	if err := decodeInto(specNode, spec); err != nil {
		if mentionsBinary(specNode, proxyversion.Newest.Server) || mentionsBinary(specNode, proxyversion.Newest.Agent) {
			o.Malformed = fmt.Errorf("%s: %w", specField, err)
		}
		return nil, ""
	}
	return spec, specField
}

// findWorkload returns the workload when a container of spec runs bin; its
// flags are parsed once the bundle's proxy version is known (settleTarget).
func findWorkload(o *Object, spec *corev1.PodSpec, specField string, bin *proxyversion.Binary) *Workload {
	for i := range spec.Containers {
		c := &spec.Containers[i]
		argv := append(append([]string{}, c.Command...), c.Args...)
		if !bin.Runs(argv) {
			continue
		}
		field := fmt.Sprintf("%s.containers[%d]", specField, i)
		return &Workload{Object: o, Spec: spec, SpecField: specField, Index: i, Field: field}
	}
	return nil
}

// parse reads the container's command line as bin does.
func (w *Workload) parse(bin *proxyversion.Binary) {
	c := w.Container()
	argv := append(append([]string{}, c.Command...), c.Args...)
	w.Flags = parseFlags(bin, argv, argvFields(w.Field, len(c.Command), len(c.Args)))
}

// mentionsBinary tells whether a pod spec that fails to decode was meant to run
// bin, so a broken server pod is reported instead of silently ignored.
func mentionsBinary(n *yaml.RNode, bin *proxyversion.Binary) bool {
	s, err := n.String()
	return err == nil && strings.Contains(s, bin.Name)
}
