package check

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// checkTarget: the bundle must say which proxy version it is for, since the
// flags a server takes depend on it (a v0.36 flag crash-loops a v0.28
// server), and the server image's OpenShift tag should name the same one.
func checkTarget(b *bundlemodel.Bundle, _ Options, r *report) {
	t := b.Target
	w := b.Server
	if w == nil {
		w = b.Agent
	}
	if w == nil {
		return
	}
	ref, field := w.Object.Ref(), "metadata.annotations"
	if t.Version == nil {
		r.errorf("proxy-version-unknown", ref, field,
			fmt.Sprintf("rebuild with spec.proxyVersion or --proxy-version (%s), or annotate the server pod and agent DaemonSet with %s", proxyversion.Names(), proxyversion.AnnotationProxyVersion),
			"%s; its flags are checked against %s, which may not be what the image runs", t.Problem, t.Binaries())
		return
	}
	if t.Image != nil && t.Image != t.Version {
		r.warnf("proxy-version-image-mismatch", ref, field,
			fmt.Sprintf("target %s (spec.proxyVersion, --proxy-version), or use an image of a release that ships %s", t.Image.Describe(), t.Version),
			"the bundle targets proxy %s (%s), but its image %s is tagged for a release that ships %s", t.Version, t.From, t.ImageRef, t.Image.Describe())
	}
}
