package kuberead

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
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
		return nil, fmt.Errorf("%s is %s, not a file: give a regular file (or a FIFO, a pipe)", p, inputread.KindName(m))
	}
	return inputread.FileWithin(ctx, p, inputread.Kubeconfig)
}

func (userFiles) show(p string) string { return p }

func (userFiles) noPlugins() string { return "" }

// rootFiles are the files of the root's admin kubeconfig, read inside the
// root (Root says how). No plugin of it runs: the tool runs as root, and
// the file is one it only found.
type rootFiles struct{ root Root }

func (r rootFiles) resolve(origin, p string) (string, error) { return r.root.Resolve(origin, p) }

func (r rootFiles) read(ctx context.Context, name string) ([]byte, error) {
	return r.root.Read(ctx, name)
}

func (r rootFiles) show(name string) string { return r.root.Show(name) }

func (rootFiles) noPlugins() string {
	return "it was found under --root, and a credential plugin never runs from a kubeconfig the tool only found " +
		"(it runs as root); if the plugin is meant, pass the file with --kubeconfig"
}
