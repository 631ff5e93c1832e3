package bundle_test

import (
	"path"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	corev1 "k8s.io/api/core/v1"
)

// flagValue returns the value of a --flag=value argument that must occur once.
func flagValue(t *testing.T, args []string, flag string) string {
	t.Helper()
	var found []string
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			found = append(found, v)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want %s exactly once in %v, got %d", flag, args, len(found))
	}
	return found[0]
}

// volumeFor resolves a container path to the volume mounted over it (the
// deepest mount wins, as in the kubelet) and the path inside that volume.
func volumeFor(t *testing.T, spec corev1.PodSpec, c corev1.Container, p string) (corev1.Volume, string) {
	t.Helper()
	var best *corev1.VolumeMount
	for i, m := range c.VolumeMounts {
		if (p == m.MountPath || strings.HasPrefix(p, m.MountPath+"/")) && (best == nil || len(m.MountPath) > len(best.MountPath)) {
			best = &c.VolumeMounts[i]
		}
	}
	if best == nil {
		t.Fatalf("%s: %s is on no volume mount, so it is not on the host", c.Name, p)
	}
	for _, v := range spec.Volumes {
		if v.Name == best.Name {
			return v, strings.TrimPrefix(strings.TrimPrefix(p, best.MountPath), "/")
		}
	}
	t.Fatalf("%s: mount %s names no volume", c.Name, best.Name)
	return corev1.Volume{}, ""
}

// hostPathThroughMounts maps a container path to the host file it is.
func hostPathThroughMounts(t *testing.T, spec corev1.PodSpec, c corev1.Container, p string) string {
	t.Helper()
	v, rel := volumeFor(t, spec, c, p)
	if v.HostPath == nil {
		t.Fatalf("%s: %s is on volume %s, which is not a hostPath", c.Name, p, v.Name)
	}
	return path.Join(v.HostPath.Path, rel)
}

// hostPathThroughKASMount maps a path as the KAS container sees it to the host,
// using the object's kas-config-mount annotation (HOSTDIR:CONTAINERDIR).
func hostPathThroughKASMount(t *testing.T, obj map[string]any, p string) string {
	t.Helper()
	hostDir, containerDir, ok := strings.Cut(annotation(t, obj, hostlayout.AnnotationKASConfigMount), ":")
	if !ok {
		t.Fatalf("malformed %s annotation", hostlayout.AnnotationKASConfigMount)
	}
	rel, ok := strings.CutPrefix(p, containerDir+"/")
	if !ok {
		t.Fatalf("%s is outside the KAS mount %s, so the KAS cannot see it", p, containerDir)
	}
	return hostDir + "/" + rel
}

func annotation(t *testing.T, obj map[string]any, key string) string {
	t.Helper()
	v, _ := dig(t, obj, "metadata", "annotations", key).(string)
	return v
}

// dig walks maps by key and lists by index or by element name (named),
// failing on a missing step.
func dig(t *testing.T, node any, steps ...any) any {
	t.Helper()
	for _, s := range steps {
		switch k := s.(type) {
		case named:
			node = elementNamed(t, node, string(k))
		case string:
			m, ok := node.(map[string]any)
			if !ok {
				t.Fatalf("at %q: not a mapping", k)
			}
			node = m[k]
		case int:
			l, ok := node.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("at [%d]: not a list that long", k)
			}
			node = l[k]
		}
	}
	return node
}

// named is a dig step that picks the list element whose name is it.
type named string

func elementNamed(t *testing.T, node any, name string) any {
	t.Helper()
	l, ok := node.([]any)
	if !ok {
		t.Fatalf("at [name=%s]: not a list", name)
	}
	for _, e := range l {
		if m, ok := e.(map[string]any); ok && m["name"] == name {
			return m
		}
	}
	t.Fatalf("no element named %s", name)
	return nil
}
