package bundlemodel

import (
	"fmt"
	"path"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Within reports whether p is dir or below it, and the rest of p below dir.
func Within(p, dir string) (string, bool) {
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

// Mount is how a container sees one path.
type Mount struct {
	Mount  *corev1.VolumeMount
	Volume *corev1.Volume // nil when no volume has the mount's name
	Rest   string         // the path below the mount point (subPath included)
}

// MountFor finds the mount holding containerPath; the deepest mount point
// wins, as it does in the container.
func (w *Workload) MountFor(containerPath string) (*Mount, bool) {
	var best *Mount
	bestLen := -1
	c := w.Container()
	for i := range c.VolumeMounts {
		m := &c.VolumeMounts[i]
		rest, ok := Within(containerPath, m.MountPath)
		if !ok || len(path.Clean(m.MountPath)) <= bestLen {
			continue
		}
		bestLen = len(path.Clean(m.MountPath))
		if m.SubPath != "" {
			rest = path.Join(m.SubPath, rest)
		}
		best = &Mount{Mount: m, Volume: w.volume(m.Name), Rest: rest}
	}
	return best, best != nil
}

func (w *Workload) volume(name string) *corev1.Volume {
	for i := range w.Spec.Volumes {
		if w.Spec.Volumes[i].Name == name {
			return &w.Spec.Volumes[i]
		}
	}
	return nil
}

// HostPath resolves a container path to the host file it names. The error
// says why the path is not on the host.
func (w *Workload) HostPath(containerPath string) (string, error) {
	m, ok := w.MountFor(containerPath)
	switch {
	case !ok:
		return "", fmt.Errorf("%s is not inside any volumeMount of container %s", containerPath, w.Container().Name)
	case m.Volume == nil:
		return "", fmt.Errorf("volumeMount %q has no volume of that name", m.Mount.Name)
	case m.Volume.HostPath == nil:
		return "", fmt.Errorf("volume %q is not a hostPath volume", m.Volume.Name)
	}
	return path.Join(m.Volume.HostPath.Path, m.Rest), nil
}

// SecretVolume is the volume the agent reads its --ca-cert from, or its
// first Secret volume, or nil.
func (w *Workload) SecretVolume() *corev1.Volume {
	if ca := w.Flags.Value("ca-cert"); ca != "" {
		if m, ok := w.MountFor(ca); ok && m.Volume != nil && m.Volume.Secret != nil {
			return m.Volume
		}
	}
	for i := range w.Spec.Volumes {
		if w.Spec.Volumes[i].Secret != nil {
			return &w.Spec.Volumes[i]
		}
	}
	return nil
}
