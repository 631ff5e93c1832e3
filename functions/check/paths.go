package check

import (
	"fmt"
	"path"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// kasMount is the KAS container's mount of the bootstrap-configs directory.
type kasMount struct{ host, container string }

// kasMountOf reads the kas-config-mount annotation of o, with the installer's
// layout when it is missing.
func kasMountOf(o *bundlemodel.Object) (kasMount, error) {
	v, ok := o.Annotations[hostlayout.AnnotationKASConfigMount]
	if !ok {
		v = hostlayout.InstallerKASMount.String()
	}
	host, ctr, found := strings.Cut(v, ":")
	if !found || !path.IsAbs(host) || !path.IsAbs(ctr) {
		return kasMount{}, fmt.Errorf("annotation %s=%q is not HOSTDIR:CONTAINERDIR with absolute paths", hostlayout.AnnotationKASConfigMount, v)
	}
	return kasMount{host: path.Clean(host), container: path.Clean(ctr)}, nil
}

// hostPath resolves a path as the KAS container sees it to the host path.
func (k kasMount) hostPath(p string) (string, bool) {
	rest, ok := bundlemodel.Within(p, k.container)
	if !ok {
		return "", false
	}
	return path.Join(k.host, rest), true
}
