// Package netreq derives a bundle's network requirements (which port, which
// direction, from where to where, for how long) from the objects themselves,
// so a customised port or address is what gets reported.
package netreq

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/manifest"
)

// Workload is the proxy-server or proxy-agent container and its pod spec.
type Workload struct {
	Object    manifest.ID
	PodSpec   map[string]any
	Container map[string]any
	Args      []string
	Binary    *anp.Binary // what the container runs, whose defaults apply
}

// Bundle holds the parts of a bundle the network requirements come from.
// Server and Agent are nil when the bundle has none (bootstrap-in-place).
type Bundle struct {
	Server *Workload
	Agent  *Workload
	Egress map[string]any // the EgressSelectorConfiguration body, or nil
}

// Read finds the server static pod, the agent DaemonSet and the egress
// selector in parsed objects.
func Read(objs []manifest.Object) (*Bundle, error) {
	b := &Bundle{}
	for _, o := range objs {
		var err error
		placement := o.Annotation(hostlayout.AnnotationPlacement)
		switch {
		case o.ID.Kind == "Pod" && placement == hostlayout.PlacementStaticPod:
			b.Server, err = workload(o, o.Map("spec"), hostlayout.ServerPodName, anp.Server)
		case o.ID.Kind == "Pod" && placement == "":
			// render strips the annotations: a written static pod is
			// recognised by what it runs.
			if w, werr := workload(o, o.Map("spec"), hostlayout.ServerPodName, anp.Server); werr == nil {
				b.Server = w
			}
		case o.ID.Kind == "DaemonSet":
			b.Agent, err = workload(o, o.Map("spec", "template", "spec"), hostlayout.AgentName, anp.Agent)
		case o.ID.Kind == hostlayout.EgressKind:
			b.Egress = o.Body
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// workload picks the container by name, else the one running bin.
func workload(o manifest.Object, spec map[string]any, name string, bin *anp.Binary) (*Workload, error) {
	cs, _ := spec["containers"].([]any)
	var pick map[string]any
	for _, c := range cs {
		m, _ := c.(map[string]any)
		if m["name"] == name {
			pick = m
			break
		}
		if pick == nil && strings.Contains(fmt.Sprint(m["command"]), bin.Name) {
			pick = m
		}
	}
	if pick == nil {
		return nil, fmt.Errorf("%s: no container named %s or running %s", o.ID, name, bin.Name)
	}
	w := &Workload{Object: o.ID, PodSpec: spec, Container: pick, Binary: bin}
	for _, field := range []string{"command", "args"} {
		items, _ := pick[field].([]any)
		for _, it := range items {
			w.Args = append(w.Args, fmt.Sprint(it))
		}
	}
	return w, nil
}

// Flag returns the value of --name (last one wins, as with pflag), accepting
// both --name=value and --name value.
func (w *Workload) Flag(name string) (string, bool) {
	val, found := "", false
	for i, a := range w.Args {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			val, found = v, true
		} else if a == "--"+name && i+1 < len(w.Args) && !strings.HasPrefix(w.Args[i+1], "-") {
			val, found = w.Args[i+1], true
		}
	}
	return val, found
}

// Port returns a port flag's value, or the binary's default when unset.
func (w *Workload) Port(name string) (int, error) {
	v, ok := w.Flag(name)
	if !ok {
		v = w.Binary.Default(name)
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < 0 || p > 65535 {
		return 0, fmt.Errorf("%s: --%s=%q is not a port number", w.Object, name, v)
	}
	return p, nil
}

// HostNetwork reports whether the pod uses the node's network namespace.
func (w *Workload) HostNetwork() bool {
	b, _ := w.PodSpec["hostNetwork"].(bool)
	return b
}
