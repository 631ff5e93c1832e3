// Package netreq derives a bundle's network requirements (which port, which
// direction, from where to where, for how long) from the objects themselves,
// so a customised port or address is what gets reported.
package netreq

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundlediff"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// Workload is the proxy-server or proxy-agent container and its pod spec.
type Workload struct {
	Object    bundlediff.ID
	PodSpec   map[string]any
	Container map[string]any
	Args      []string
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
func Read(objs []bundlediff.Object) (*Bundle, error) {
	b := &Bundle{}
	for _, o := range objs {
		var err error
		switch {
		case o.ID.Kind == "Pod" && placement(o) == hostlayout.PlacementStaticPod:
			b.Server, err = workload(o, dig(o.Body, "spec"), hostlayout.ServerPodName, "proxy-server")
		case o.ID.Kind == "Pod" && placement(o) == "":
			// render strips the annotations: a written static pod is
			// recognised by what it runs.
			if w, werr := workload(o, dig(o.Body, "spec"), hostlayout.ServerPodName, "proxy-server"); werr == nil {
				b.Server = w
			}
		case o.ID.Kind == "DaemonSet":
			b.Agent, err = workload(o, dig(o.Body, "spec", "template", "spec"), hostlayout.AgentName, "proxy-agent")
		case o.ID.Kind == hostlayout.EgressKind:
			b.Egress = o.Body
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

func placement(o bundlediff.Object) string {
	s, _ := dig(o.Body, "metadata", "annotations")[hostlayout.AnnotationPlacement].(string)
	return s
}

// workload picks the container by name, else the one running binary.
func workload(o bundlediff.Object, spec map[string]any, name, binary string) (*Workload, error) {
	cs, _ := spec["containers"].([]any)
	var pick map[string]any
	for _, c := range cs {
		m, _ := c.(map[string]any)
		if m["name"] == name {
			pick = m
			break
		}
		if pick == nil && strings.Contains(fmt.Sprint(m["command"]), binary) {
			pick = m
		}
	}
	if pick == nil {
		return nil, fmt.Errorf("%s: no container named %s or running %s", o.ID, name, binary)
	}
	w := &Workload{Object: o.ID, PodSpec: spec, Container: pick}
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

// Port returns a port flag's value, or def when unset (the binary's default).
func (w *Workload) Port(name string, def int) (int, error) {
	v, ok := w.Flag(name)
	if !ok {
		return def, nil
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

func dig(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return map[string]any{}
		}
		m = next
	}
	return m
}
