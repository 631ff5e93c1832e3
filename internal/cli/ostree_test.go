package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ostreeRoot is a root laid out as an RHCOS host: opt is a relative link
// to var/opt, with var/opt/openshift there (installer assets copied) or not.
func ostreeRoot(t *testing.T, withOpenshift bool) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "var/opt")
	if withOpenshift {
		dir = filepath.Join(dir, "openshift")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("var/opt", filepath.Join(root, "opt")); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestOstreeOptLink: render, certs, status's file checks and teardown treat
// opt -> var/opt as a plain /opt, with or without var/opt/openshift; the
// files land under var/opt, the link stays, and teardown removes what
// render created there and nothing else.
func TestOstreeOptLink(t *testing.T) {
	for _, withOpenshift := range []bool{true, false} {
		name := "without var/opt/openshift"
		if withOpenshift {
			name = "with var/opt/openshift"
		}
		t.Run(name, func(t *testing.T) {
			root := ostreeRoot(t, withOpenshift)
			if code, out, stderr := runHostCmd(t, hostRenderArgs(root)...); code != 0 {
				t.Fatalf("render: exit %d\n%s%s", code, out, stderr)
			}
			for _, rel := range []string{"var/opt/openshift/konnectivity-config-override.yaml", "var/opt/openshift/tls/konnectivity/ca.key", "var/opt/openshift/manifests/konnectivity-00-namespace.yaml"} {
				if fi, err := os.Lstat(filepath.Join(root, rel)); err != nil || !fi.Mode().IsRegular() {
					t.Errorf("render did not write %s through the link: %v", rel, err)
				}
			}
			if code, out, stderr := runHostCmd(t, "certs", "--root", root, "--dir", filepath.Join(root, "opt/openshift/tls/konnectivity"), "--bootstrap-ip", hostTestIP); code != 0 {
				t.Fatalf("certs: exit %d\n%s%s", code, out, stderr)
			}
			if code, out, stderr := runHostCmd(t, "teardown", "--root", root); code != 0 {
				t.Fatalf("teardown: exit %d\n%s%s", code, out, stderr)
			}
			if fi, err := os.Lstat(filepath.Join(root, "opt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the opt link did not survive teardown: %v", err)
			}
			want := []string{"var/opt"}
			if withOpenshift {
				want = append(want, "var/opt/openshift")
			}
			for _, rel := range want {
				if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
					t.Errorf("teardown removed %s, which render did not create: %v", rel, err)
				}
			}
			if !withOpenshift {
				if _, err := os.Stat(filepath.Join(root, "var/opt/openshift")); !os.IsNotExist(err) {
					t.Errorf("teardown left var/opt/openshift, which render created: %v", err)
				}
			}
		})
	}
}

// TestOstreeLinkOutOfTheRoot: an opt link that leaves the root stays
// refused by render, certs and teardown, naming the link; nothing is
// written where it points.
func TestOstreeLinkOutOfTheRoot(t *testing.T) {
	for _, target := range []string{"abs", "../outside"} {
		t.Run(target, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			dest := outside
			if target != "abs" {
				dest, _ = filepath.Rel(root, outside)
			}
			if err := os.Symlink(dest, filepath.Join(root, "opt")); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(root, "opt")
			for _, args := range [][]string{
				hostRenderArgs(root),
				{"certs", "--root", root, "--dir", filepath.Join(root, "opt/openshift/tls/konnectivity"), "--bootstrap-ip", hostTestIP},
			} {
				code, _, stderr := runHostCmd(t, args...)
				if code == 0 || !strings.Contains(stderr, link) {
					t.Errorf("%s: exit %d, stderr does not name %s:\n%s", args[0], code, link, stderr)
				}
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("something was written through the link out of the root: %v", entries)
			}
		})
	}
}

// TestOstreeTeardownRefusesALinkOutOfTheRoot: when opt is replaced by a link
// out of the root after render, teardown refuses the recorded paths beneath
// it (exit 1, naming the link) and removes nothing where it points.
func TestOstreeTeardownRefusesALinkOutOfTheRoot(t *testing.T) {
	root, outside := hostRenderedRoot(t), t.TempDir()
	victim := filepath.Join(outside, "openshift/konnectivity-config-override.yaml")
	if err := os.MkdirAll(filepath.Dir(victim), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(victim, []byte("someone else's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "opt")
	if err := os.RemoveAll(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runHostCmd(t, "teardown", "--root", root)
	if code != 1 || !strings.Contains(stderr, link) {
		t.Errorf("exit %d (want 1), stderr does not name %s:\n%s", code, link, stderr)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("teardown removed a file through the link out of the root: %v", err)
	}
}

// TestOstreeDanglingOptLink: opt -> var/opt without var/opt is refused with
// exit 3 naming the link and the fix, and nothing is created.
func TestOstreeDanglingOptLink(t *testing.T) {
	root := t.TempDir()
	if err := os.Symlink("var/opt", filepath.Join(root, "opt")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runHostCmd(t, hostRenderArgs(root)...)
	if code != 3 || !strings.Contains(stderr, filepath.Join(root, "opt")+": is a symbolic link to a directory that does not exist") || !strings.Contains(stderr, "fix:") {
		t.Errorf("exit %d (want 3), stderr:\n%s", code, stderr)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Errorf("render created something beside the link: %v", entries)
	}
}
