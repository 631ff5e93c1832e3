// Package adminkubeconfig is the bootstrap node's admin kubeconfig under a
// --root render wrote: whether the root offers it, and it and every file it
// names read inside that root (hostfs: each path element resolved there, no
// link followed). The command hands a Root to the kubeconfig lookup
// (internal/intake/kuberead), which reads no root of its own.
package adminkubeconfig

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// Root is the admin kubeconfig of one --root directory; names are paths
// beneath the root, slash-separated.
type Root struct{ dir string }

// In is the admin kubeconfig of the root at dir.
func In(dir string) Root { return Root{dir: dir} }

// Name is the admin kubeconfig's name beneath the root, as Read takes it.
func (r Root) Name() string { return filepath.ToSlash(hostlayout.AdminKubeconfig) }

// Find is the admin kubeconfig's path, or why it is not the kubeconfig to
// read: the root must be one render wrote (its state file), and something
// must be at the path. What is there is judged by Read, inside the root: a
// link or a special file there, or on its way, is refused loudly rather
// than passed over as if there were none.
func (r Root) Find() (file, none string) {
	admin := filepath.Join(r.dir, hostlayout.AdminKubeconfig)
	h, err := hostfs.Open(r.dir)
	if err != nil {
		return "", err.Error()
	}
	defer h.Close()
	if _, err := h.Lstat(r.Name()); errors.Is(err, fs.ErrNotExist) {
		return "", "no " + admin
	}
	if ok, err := h.Exists(filepath.ToSlash(hostlayout.StatePath)); !ok || err != nil {
		return "", fmt.Sprintf("%s is not a root render wrote (no %s), so its %s is not taken", r.dir, hostlayout.StatePath, hostlayout.AdminKubeconfig)
	}
	return admin, ""
}

// Resolve is where p, named by the kubeconfig at origin (a name beneath
// the root), lies: an absolute path is taken as under the root (the root
// is the bootstrap node's /), a relative one against origin's directory.
// A path that leaves the root is refused.
func (r Root) Resolve(origin, p string) (string, error) {
	rel := path.Clean(filepath.ToSlash(p))
	if path.IsAbs(rel) {
		rel = path.Clean(rel[1:])
	} else {
		rel = path.Join(path.Dir(origin), rel)
	}
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s leaves --root %s: a file the root's kubeconfig names must be inside the root", p, r.dir)
	}
	return rel, nil
}

// Read reads rel inside the root through the capped reader: a link
// anywhere on the way, anything but a regular file, and a file with a
// second name (which may lie outside the root) are refused.
func (r Root) Read(_ context.Context, rel string) ([]byte, error) {
	h, err := hostfs.Open(r.dir)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	f, err := h.OpenRegular(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// What the kubeconfig sends as credentials must be the root's own file.
	if st, ok := statOf(f); ok && st.Nlink > 1 {
		return nil, fmt.Errorf("%s has %d hard links, so it may be a file from outside --root %s: a file the root's kubeconfig names must have one name (fix: copy it into the root)", h.Abs(rel), st.Nlink, r.dir)
	}
	return inputread.Reader(f, h.Abs(rel), inputread.Kubeconfig)
}

// Show is rel as messages say it: its path on this host.
func (r Root) Show(rel string) string { return filepath.Join(r.dir, filepath.FromSlash(rel)) }

// statOf is the kernel's stat of an open file, when it has one.
func statOf(f *os.File) (*syscall.Stat_t, bool) {
	fi, err := f.Stat()
	if err != nil {
		return nil, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return st, ok
}
