package kuberead

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/adminkubeconfig"
)

// TestRootKubeconfig: the root's admin kubeconfig and every file it names
// are read inside the root: an absolute path as under the root, a relative
// one against the kubeconfig's directory there; a path leaving the root, a
// link on the way (the auth directory itself, or the file) and a special
// file are refused, naming the path, without waiting on it.
func TestRootKubeconfig(t *testing.T) {
	outside := t.TempDir()
	writeText(t, filepath.Join(outside, "ca.crt"), "OUTSIDE")
	writeText(t, filepath.Join(outside, "kubeconfig"), kubeconfigText("", "token: outside"))
	for _, tc := range []struct {
		name  string
		ca    string // certificate-authority in the admin kubeconfig
		setup func(t *testing.T, root string)
		want  string // the CA read, or
		err   string // the refusal
	}{
		{"absolute path is under the root", "/opt/openshift/tls/ca.crt", nil, "INSIDE", ""},
		{"relative path from the kubeconfig", "../tls/ca.crt", nil, "INSIDE", ""},
		{"a path leaving the root", "../../../../../ca.crt", nil, "", "leaves --root"},
		{"a link off the root", "/opt/openshift/tls/link.crt", func(t *testing.T, root string) {
			symlink(t, filepath.Join(outside, "ca.crt"), filepath.Join(root, "opt/openshift/tls/link.crt"))
		}, "", "is a symbolic link"},
		{"a FIFO", "/opt/openshift/tls/fifo", func(t *testing.T, root string) {
			if err := syscall.Mkfifo(filepath.Join(root, "opt/openshift/tls/fifo"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "", "is a FIFO (named pipe), not a regular file"},
		{"a hard link to a file outside", "/opt/openshift/tls/hard.crt", func(t *testing.T, root string) {
			if err := os.Link(filepath.Join(outside, "ca.crt"), filepath.Join(root, "opt/openshift/tls/hard.crt")); err != nil {
				t.Fatalf("cannot hard-link here (the temporary directories are on one filesystem?): %v", err)
			}
		}, "", "has 2 hard links"},
		{"the auth directory a link off the root", "/opt/openshift/tls/ca.crt", func(t *testing.T, root string) {
			auth := filepath.Join(root, "opt/openshift/auth")
			if err := os.RemoveAll(auth); err != nil {
				t.Fatal(err)
			}
			symlink(t, outside, auth)
		}, "", "opt/openshift/auth is a symbolic link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeText(t, filepath.Join(root, hostlayout.StatePath), "{}")
			writeText(t, filepath.Join(root, "opt/openshift/tls/ca.crt"), "INSIDE")
			writeText(t, filepath.Join(root, hostlayout.AdminKubeconfig), kubeconfigText(", certificate-authority: "+tc.ca, "token: t"))
			if tc.setup != nil {
				tc.setup(t, root)
			}
			c := Find(Lookup{Root: adminkubeconfig.In(root)})
			if !c.Found() {
				t.Fatalf("Find: %s", c)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			cfg, err := loadConfig(ctx, c)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v; want a refusal saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := string(cfg.Clusters["c"].CertificateAuthorityData); got != tc.want {
				t.Errorf("read CA %q; want %q", got, tc.want)
			}
		})
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
