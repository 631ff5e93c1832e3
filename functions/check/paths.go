package check

import (
	"fmt"
	"path"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// within reports whether p is dir or below it, and the rest of p below dir.
func within(p, dir string) (string, bool) {
	p, dir = path.Clean(p), path.Clean(dir)
	if p == dir {
		return "", true
	}
	if dir == "/" {
		return strings.TrimPrefix(p, "/"), strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, dir+"/") {
		return p[len(dir)+1:], true
	}
	return "", false
}

// mountOf is how a container sees one path.
type mountOf struct {
	mount  *corev1.VolumeMount
	volume *corev1.Volume // nil when no volume has the mount's name
	rest   string         // the path below the mount point (subPath included)
}

// mountFor finds the mount holding containerPath; the deepest mount point wins,
// as it does in the container.
func (w *workload) mountFor(containerPath string) (*mountOf, bool) {
	var best *mountOf
	bestLen := -1
	c := w.container()
	for i := range c.VolumeMounts {
		m := &c.VolumeMounts[i]
		rest, ok := within(containerPath, m.MountPath)
		if !ok || len(path.Clean(m.MountPath)) <= bestLen {
			continue
		}
		bestLen = len(path.Clean(m.MountPath))
		if m.SubPath != "" {
			rest = path.Join(m.SubPath, rest)
		}
		best = &mountOf{mount: m, volume: w.volume(m.Name), rest: rest}
	}
	return best, best != nil
}

func (w *workload) volume(name string) *corev1.Volume {
	for i := range w.spec.Volumes {
		if w.spec.Volumes[i].Name == name {
			return &w.spec.Volumes[i]
		}
	}
	return nil
}

// hostPath resolves a container path to the host file it names. The error
// says why the path is not on the host.
func (w *workload) hostPath(containerPath string) (string, error) {
	m, ok := w.mountFor(containerPath)
	switch {
	case !ok:
		return "", fmt.Errorf("%s is not inside any volumeMount of container %s", containerPath, w.container().Name)
	case m.volume == nil:
		return "", fmt.Errorf("volumeMount %q has no volume of that name", m.mount.Name)
	case m.volume.HostPath == nil:
		return "", fmt.Errorf("volume %q is not a hostPath volume", m.volume.Name)
	}
	return path.Join(m.volume.HostPath.Path, m.rest), nil
}

// kasMount is the KAS container's mount of the bootstrap-configs directory.
type kasMount struct{ host, container string }

// kasMountOf reads the kas-config-mount annotation of o, with the installer's
// layout when it is missing.
func kasMountOf(o *object) (kasMount, error) {
	v, ok := o.annotations[hostlayout.AnnotationKASConfigMount]
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
	rest, ok := within(p, k.container)
	if !ok {
		return "", false
	}
	return path.Join(k.host, rest), true
}

// agentSecretVolume is the volume the agent reads its --ca-cert from, or its
// first Secret volume.
func agentSecretVolume(w *workload) *corev1.Volume {
	if ca := w.flags.value("ca-cert"); ca != "" {
		if m, ok := w.mountFor(ca); ok && m.volume != nil && m.volume.Secret != nil {
			return m.volume
		}
	}
	for i := range w.spec.Volumes {
		if w.spec.Volumes[i].Secret != nil {
			return &w.spec.Volumes[i]
		}
	}
	return nil
}
