//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestMapContainer checks the mapper on its own, so a tunnel failure is never
// a mapping bug in disguise.
func TestMapContainer(t *testing.T) {
	root := t.TempDir()
	secret := t.TempDir()
	orCreate := corev1.HostPathDirectoryOrCreate
	dir := corev1.HostPathDirectory
	if err := os.MkdirAll(filepath.Join(root, "/opt/certs"), 0o700); err != nil {
		t.Fatal(err)
	}
	pod := corev1.PodSpec{
		Volumes: []corev1.Volume{
			{Name: "cfg", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/etc/cfg", Type: &orCreate}}},
			{Name: "certs", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/opt/certs", Type: &dir}}},
			{Name: "missing", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/nope", Type: &dir}}},
			{Name: "sec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s"}}},
		},
	}
	image := map[string]string{"/usr/bin/tool": "/bin/tool"}
	tests := []struct {
		name    string
		c       corev1.Container
		want    []string
		wantErr string
	}{
		{
			name: "flags mapped through hostPath and secret mounts, longest mount wins",
			c: corev1.Container{Name: "c", Command: []string{"/usr/bin/tool"},
				Args:         []string{"--a=/etc/cfg/sock", "--b=/etc/cfg/sub/x", "--c=/etc/k/tls.crt", "--mode=grpc", "--flag"},
				VolumeMounts: []corev1.VolumeMount{{Name: "cfg", MountPath: "/etc/cfg"}, {Name: "certs", MountPath: "/etc/cfg/sub"}, {Name: "sec", MountPath: "/etc/k"}}},
			want: []string{"/bin/tool", "--a=" + root + "/etc/cfg/sock", "--b=" + root + "/opt/certs/x", "--c=" + secret + "/tls.crt", "--mode=grpc", "--flag"},
		},
		{
			name:    "a path on no mount is a bundle bug",
			c:       corev1.Container{Name: "c", Command: []string{"/usr/bin/tool"}, Args: []string{"--ca=/etc/other/ca.crt"}},
			wantErr: "container path /etc/other/ca.crt is on no volume mount",
		},
		{
			name:    "a binary the image does not have",
			c:       corev1.Container{Name: "c", Command: []string{"/bin/sh"}},
			wantErr: "not a binary of the image",
		},
		{
			name:    "a Directory hostPath that does not exist fails like the kubelet",
			c:       corev1.Container{Name: "c", Command: []string{"/usr/bin/tool"}, VolumeMounts: []corev1.VolumeMount{{Name: "missing", MountPath: "/m"}}},
			wantErr: "hostPath /nope is not a directory",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := pod
			p.Containers = []corev1.Container{tc.c}
			h, err := mapContainer(p, "c", root, map[string]string{"s": secret}, image)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(h.argv, tc.want) {
				t.Errorf("argv =\n%q\nwant\n%q", h.argv, tc.want)
			}
		})
	}
}
