//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// hostMount is one container directory backed by a host directory.
type hostMount struct{ container, host string }

// hostCommand is a rendered container turned into a command line on this
// host: the image's binaries replaced by the built ones and every container
// path rewritten through the pod's own volume mounts.
type hostCommand struct {
	argv   []string
	mounts []hostMount // longest container path first
}

// mapContainer maps container name of pod onto the host. root is the temporary
// root hostPath volumes live under; secretDirs holds each Secret volume's files
// by Secret name; image maps the image's binaries to built ones.
func mapContainer(pod corev1.PodSpec, name, root string, secretDirs, image map[string]string) (*hostCommand, error) {
	c, err := findContainer(pod, name)
	if err != nil {
		return nil, err
	}
	h := &hostCommand{}
	for _, m := range c.VolumeMounts {
		dir, err := volumeHostDir(pod, m.Name, root, secretDirs)
		if err != nil {
			return nil, fmt.Errorf("container %s mount %s: %w", name, m.MountPath, err)
		}
		h.mounts = append(h.mounts, hostMount{container: filepath.Clean(m.MountPath), host: dir})
	}
	sort.Slice(h.mounts, func(i, j int) bool { return len(h.mounts[i].container) > len(h.mounts[j].container) })
	if len(c.Command) == 0 {
		return nil, fmt.Errorf("container %s has no command", name)
	}
	bin, ok := image[c.Command[0]]
	if !ok {
		return nil, fmt.Errorf("container %s: command %s is not a binary of the image (have %v)", name, c.Command[0], keys(image))
	}
	h.argv = []string{bin}
	for _, a := range append(append([]string{}, c.Command[1:]...), c.Args...) {
		mapped, err := h.mapArg(a)
		if err != nil {
			return nil, fmt.Errorf("container %s: %w", name, err)
		}
		h.argv = append(h.argv, mapped)
	}
	return h, nil
}

func findContainer(pod corev1.PodSpec, name string) (*corev1.Container, error) {
	for i := range pod.Containers {
		if pod.Containers[i].Name == name {
			return &pod.Containers[i], nil
		}
	}
	return nil, fmt.Errorf("no container %q in pod", name)
}

// mustContainer is findContainer for a container the test knows is there.
func mustContainer(t *testing.T, pod corev1.PodSpec, name string) *corev1.Container {
	t.Helper()
	c, err := findContainer(pod, name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// volumeHostDir is the host directory behind a pod volume, created the way
// the kubelet would (DirectoryOrCreate) or required to exist (Directory).
func volumeHostDir(pod corev1.PodSpec, vol, root string, secretDirs map[string]string) (string, error) {
	for _, v := range pod.Volumes {
		if v.Name != vol {
			continue
		}
		switch {
		case v.HostPath != nil:
			dir := filepath.Join(root, v.HostPath.Path)
			if v.HostPath.Type != nil && *v.HostPath.Type == corev1.HostPathDirectoryOrCreate {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return "", err
				}
			}
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				return "", fmt.Errorf("hostPath %s is not a directory under the root: %v", v.HostPath.Path, err)
			}
			return dir, nil
		case v.Secret != nil:
			dir, ok := secretDirs[v.Secret.SecretName]
			if !ok {
				return "", fmt.Errorf("secret %s was not rendered", v.Secret.SecretName)
			}
			return dir, nil
		default:
			return "", fmt.Errorf("volume %s has a source the e2e mapper does not support", vol)
		}
	}
	return "", fmt.Errorf("no volume %q in pod", vol)
}

// mapArg rewrites the path in `--flag=/path` or `/path`. An absolute path no
// mount covers would name a file inside the image, which the tunnel never
// uses: that is a bundle bug, so it is an error.
func (h *hostCommand) mapArg(a string) (string, error) {
	prefix, value := "", a
	if strings.HasPrefix(a, "-") {
		i := strings.IndexByte(a, '=')
		if i < 0 {
			return a, nil
		}
		prefix, value = a[:i+1], a[i+1:]
	}
	if !strings.HasPrefix(value, "/") {
		return a, nil
	}
	p, err := h.path(value)
	if err != nil {
		return "", fmt.Errorf("argument %q: %w", a, err)
	}
	return prefix + p, nil
}

// path maps one container path to the host file it names.
func (h *hostCommand) path(containerPath string) (string, error) {
	clean := filepath.Clean(containerPath)
	for _, m := range h.mounts {
		if clean == m.container {
			return m.host, nil
		}
		if rest, ok := strings.CutPrefix(clean, m.container+"/"); ok {
			return filepath.Join(m.host, rest), nil
		}
	}
	return "", fmt.Errorf("container path %s is on no volume mount", containerPath)
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
