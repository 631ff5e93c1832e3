package renderedroot

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

func TestLoadRenderedRoot(t *testing.T) {
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23"}); err != nil {
		t.Fatal(err)
	}
	r, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if r.Bundle.Server == nil || r.Bundle.Agent == nil || r.Bundle.Egress == nil {
		t.Fatalf("bundle %+v: want server, agent and egress", r.Bundle)
	}
	if want := (hostlayout.Mount{Host: "/etc/kubernetes/bootstrap-configs", Container: "/etc/kubernetes/config"}); r.KASMount != want {
		t.Errorf("KAS mount %+v, want %+v", r.KASMount, want)
	}
	sock := filepath.Join(root, "etc/kubernetes/bootstrap-configs/konnectivity-server.socket")
	for _, tc := range []struct {
		name string
		got  func() (string, bool)
		want string
	}{
		{"KAS socket", func() (string, bool) { return r.KASHostPath("/etc/kubernetes/config/konnectivity-server.socket") }, sock},
		{"server socket", func() (string, bool) {
			return r.ServerHostPath("/etc/kubernetes/bootstrap-configs/konnectivity-server.socket")
		}, sock},
		{"server cert", func() (string, bool) { return r.ServerHostPath("/etc/konnectivity/server.crt") }, filepath.Join(root, "opt/openshift/tls/konnectivity/server.crt")},
		{"KAS path outside the mount", func() (string, bool) { return r.KASHostPath("/etc/kubernetes/configs/x") }, ""},
		{"server path outside its mounts", func() (string, bool) { return r.ServerHostPath("/var/run/x.sock") }, ""},
	} {
		got, ok := tc.got()
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
	if r.CertDir != filepath.Join(root, "opt/openshift/tls/konnectivity") || r.EgressFile != filepath.Join(root, "etc/kubernetes/bootstrap-configs/egress-selector-config.yaml") {
		t.Errorf("cert dir %s, egress file %s", r.CertDir, r.EgressFile)
	}
}

// TestKASMountFromTheRenderedFiles: a customised layout is read from where
// the egress file is and how the override names it, not assumed.
func TestKASMountFromTheRenderedFiles(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		hostlayout.StatePath: `{"version":1,"files":[` +
			`{"path":"srv/bootstrap/egress.yaml","placement":"kas-egress-config"},` +
			`{"path":"opt/override.yaml","placement":"kas-config-override"}]}`,
		"srv/bootstrap/egress.yaml": "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections: []\n",
		"opt/override.yaml":         "apiServerArguments:\n  egress-selector-config-file:\n  - /kas/etc/egress.yaml\n",
	}
	for p, c := range files {
		write(t, filepath.Join(root, p), c)
	}
	r, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := (hostlayout.Mount{Host: "/srv/bootstrap", Container: "/kas/etc"}); r.KASMount != want {
		t.Errorf("KAS mount %+v, want %+v", r.KASMount, want)
	}
	if p, ok := r.KASHostPath("/kas/etc/sock"); !ok || p != filepath.Join(root, "srv/bootstrap/sock") {
		t.Errorf("KASHostPath = %q, %v", p, ok)
	}
}

func TestLoadErrors(t *testing.T) {
	empty := t.TempDir()
	if _, err := Load(empty); !errors.Is(err, statefile.ErrNotRendered) || !strings.Contains(err.Error(), "konnectivity-bundle render --root "+empty) {
		t.Errorf("unrendered root: %v, want statefile.ErrNotRendered with the fix", err)
	}
	damaged := t.TempDir()
	write(t, filepath.Join(damaged, hostlayout.StatePath), "{not json")
	if _, err := Load(damaged); err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Errorf("damaged state: %v", err)
	}
	gone := t.TempDir()
	write(t, filepath.Join(gone, hostlayout.StatePath), `{"version":1,"files":[{"path":"etc/kubernetes/manifests/p.yaml","placement":"static-pod"}]}`)
	r, err := Load(gone)
	if err != nil || len(r.Missing) != 1 || r.Missing[0] != filepath.Join(gone, "etc/kubernetes/manifests/p.yaml") {
		t.Errorf("missing listed file: %+v, %v; want it in Missing", r, err)
	}
}

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadNeverFollowsALinkOutOfTheRoot: a rendered file swapped for a
// link to a file outside the root is an error naming the link, and the
// outside file is never read.
func TestLoadNeverFollowsALinkOutOfTheRoot(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23"}); err != nil {
		t.Fatal(err)
	}
	pod := filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")
	foreign := filepath.Join(outside, "pod.yaml")
	write(t, foreign, "apiVersion: v1\nkind: Pod\nmetadata: {name: planted, namespace: x}\n")
	if err := os.Remove(pod); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(foreign, pod); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(root); err == nil {
		t.Fatal("Load accepted a link in place of a rendered file")
	} else if !strings.Contains(err.Error(), pod) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("error does not name the link: %v", err)
	}
}

// TestLstatNeverThroughALink: status inspects the server's socket with
// Lstat; a directory link on the way out of the root is an error, and a
// path inside the root is described as it is.
func TestLstatNeverThroughALink(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "konnectivity-server.socket"), "not ours\n")
	if err := os.Symlink(outside, filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "etc", "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "etc", "real", "konnectivity-server.socket"), "ours\n")
	r := &Root{Dir: root}
	if _, err := r.Lstat(filepath.Join(root, "linked", "konnectivity-server.socket")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Lstat through a link out of the root: %v, want a symbolic link error", err)
	}
	if fi, err := r.Lstat(filepath.Join(root, "etc", "real", "konnectivity-server.socket")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("Lstat inside the root: %v %v", fi, err)
	}
	if _, err := r.Lstat(filepath.Join(outside, "konnectivity-server.socket")); err == nil {
		t.Error("Lstat accepted a path outside the root")
	}
}
