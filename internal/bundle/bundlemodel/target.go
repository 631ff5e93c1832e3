package bundlemodel

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// Target is the proxy version a bundle is for and how the bundle says so:
// the generator's annotation (proxyversion.AnnotationProxyVersion) on the server pod
// and the agent DaemonSet, else the OpenShift tag of the server's image.
type Target struct {
	// Version is the target; nil when the bundle does not say or says two
	// things (Problem tells which).
	Version *proxyversion.Version
	// From says where Version was read, for messages.
	From string
	// Problem is why Version is nil, or "".
	Problem string
	// Image is the version the server image's tag names (nil when it names
	// none), to compare with an annotation that says otherwise.
	Image *proxyversion.Version
	// ImageRef is the server container's image.
	ImageRef string
}

// Binaries is the version whose flag tables read the bundle: the target,
// or the newest when the bundle names none (its tables know every flag).
func (t Target) Binaries() *proxyversion.Version {
	if t.Version != nil {
		return t.Version
	}
	return proxyversion.Newest
}

// settleTarget reads the target and parses the workloads' flags with its
// binaries: found by the binary's name alone (classify), they are parsed
// once, here.
func (b *Bundle) settleTarget() {
	t := &b.Target
	if b.Server != nil {
		t.ImageRef = b.Server.Container().Image
		t.Image, _ = proxyversion.FromImage(t.ImageRef)
	}
	var said []annotated
	for _, w := range []*Workload{b.Server, b.Agent} {
		if w == nil {
			continue
		}
		if v, named, err := proxyversion.FromAnnotations(w.Object.Annotations); named {
			said = append(said, annotated{w.Object, v, err})
		}
	}
	switch {
	case len(said) > 0:
		t.fromAnnotations(said)
	case t.Image != nil:
		t.Version, t.From = t.Image, fmt.Sprintf("the tag of the server image %s", t.ImageRef)
	case b.Server != nil || b.Agent != nil:
		t.Problem = fmt.Sprintf("the bundle names no proxy version: no %s annotation, and the server image %q has no OpenShift tag (4.N)", proxyversion.AnnotationProxyVersion, t.ImageRef)
	}
	v := t.Binaries()
	if b.Server != nil {
		b.Server.parse(v.Server)
	}
	if b.Agent != nil {
		b.Agent.parse(v.Agent)
	}
}

// annotated is an object whose proxy version annotation names a version:
// the one it names, or why none is supported.
type annotated struct {
	object  *Object
	version *proxyversion.Version
	err     error
}

// fromAnnotations takes the version the annotated objects name; two
// different or unknown values leave it nil with the Problem.
func (t *Target) fromAnnotations(said []annotated) {
	for _, a := range said {
		o, v := a.object, a.version
		if a.err != nil {
			t.Version, t.Problem = nil, fmt.Sprintf("%s: annotation %s: %v", o.Ref(), proxyversion.AnnotationProxyVersion, a.err)
			return
		}
		if t.Version != nil && v != t.Version {
			t.Version, t.Problem = nil, fmt.Sprintf("the server pod and the agent DaemonSet name different proxy versions (%s annotation): %s and %s", proxyversion.AnnotationProxyVersion, t.Version, v)
			return
		}
		if t.Version == nil {
			t.Version, t.From = v, fmt.Sprintf("the %s annotation of %s", proxyversion.AnnotationProxyVersion, o.Ref())
		}
	}
}
