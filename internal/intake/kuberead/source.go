package kuberead

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// source reads a kubeconfig and the files it names, each through the
// capped reader, and says where a path the kubeconfig names leads and
// whether its credential plugin may run.
type source interface {
	// resolve is where p, named by the kubeconfig at origin (a name this
	// source gave), is: a name for read.
	resolve(origin, p string) (string, error)
	read(ctx context.Context, name string) ([]byte, error)
	// show is name as messages say it.
	show(name string) string
	// noPlugins is "" when the kubeconfig's exec plugin may run, else why not.
	noPlugins() string
}

// userFiles are the files of a kubeconfig the user named (--kubeconfig or
// $KUBECONFIG): any path the user could read, as client-go resolves it
// (relative to the directory of the kubeconfig that names it), but bounded.
type userFiles struct{}

func (userFiles) resolve(origin, p string) (string, error) {
	if filepath.IsAbs(p) {
		return p, nil
	}
	base, err := filepath.Abs(filepath.Dir(origin))
	if err != nil {
		return "", fmt.Errorf("the directory of %s: %w", origin, err)
	}
	return filepath.Join(base, p), nil
}

// read refuses a device, a socket or a directory unopened (a device can
// stream forever or block, and opening one may have effects), and reads a
// regular file or a FIFO through inputread within ctx.
func (userFiles) read(ctx context.Context, p string) ([]byte, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if m := fi.Mode(); !m.IsRegular() && m.Type() != fs.ModeNamedPipe {
		return nil, fmt.Errorf("%s is %s, not a file: give a regular file (or a FIFO, a pipe)", p, hostfs.KindName(m))
	}
	return inputread.FileWithin(ctx, p, inputread.Kubeconfig)
}

func (userFiles) show(p string) string { return p }

func (userFiles) noPlugins() string { return "" }

// rootFiles are the files of the root's admin kubeconfig, read inside the
// root, names being paths beneath it: an absolute path the kubeconfig
// names is taken as under the root (the root is the bootstrap node's /),
// a relative one against the kubeconfig's directory there. A path that
// leaves the root, a link anywhere on the way and anything but a regular
// file are refused. No plugin of it runs: the tool runs as root, and the
// file is one it only found.
type rootFiles struct{ root string }

func (r rootFiles) resolve(origin, p string) (string, error) {
	rel := path.Clean(filepath.ToSlash(p))
	if path.IsAbs(rel) {
		rel = path.Clean(rel[1:])
	} else {
		rel = path.Join(path.Dir(origin), rel)
	}
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s leaves --root %s: a file the root's kubeconfig names must be inside the root", p, r.root)
	}
	return rel, nil
}

func (r rootFiles) read(_ context.Context, rel string) ([]byte, error) {
	root, err := hostfs.Open(r.root)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenRegular(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A second name for a file may lie outside the root: what the
	// kubeconfig sends as credentials must be the root's own file.
	if st, ok := statOf(f); ok && st.Nlink > 1 {
		return nil, fmt.Errorf("%s has %d hard links, so it may be a file from outside --root %s: a file the root's kubeconfig names must have one name (fix: copy it into the root)", root.Abs(rel), st.Nlink, r.root)
	}
	return inputread.Reader(f, root.Abs(rel), inputread.Kubeconfig)
}

// statOf is the kernel's stat of an open file, when it has one.
func statOf(f *os.File) (*syscall.Stat_t, bool) {
	fi, err := f.Stat()
	if err != nil {
		return nil, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return st, ok
}

func (r rootFiles) show(rel string) string { return filepath.Join(r.root, filepath.FromSlash(rel)) }

func (rootFiles) noPlugins() string {
	return "it was found under --root, and a credential plugin never runs from a kubeconfig the tool only found " +
		"(it runs as root); if the plugin is meant, pass the file with --kubeconfig"
}
