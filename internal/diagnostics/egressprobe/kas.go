package egressprobe

import (
	"context"
	"fmt"
	"net"
	"os"
	"path"
	"path/filepath"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
)

// kasView is what the probe needs of a rendered root: the egress file and
// how the kube-apiserver sees its directory. It reads only the state and
// the override, not the whole bundle status parses, and it keeps the root
// open: every file the probe reads and the socket it dials are reached
// through it (internal/rootdir/hostfs), never through a link or a special file.
type kasView struct {
	h          *hostfs.Root
	EgressFile string // absolute, under the root; "" when render wrote none
	Egress     []byte // its content
	KASMount   hostlayout.Mount
}

// readKAS reads the state under root through statefile's one reader, and
// the egress file it records.
func readKAS(root string) (*kasView, error) {
	h, err := hostfs.Open(root)
	if err != nil {
		return nil, err
	}
	v := &kasView{h: h, KASMount: hostlayout.InstallerKASMount}
	if err := v.read(); err != nil {
		h.Close()
		return nil, err
	}
	return v, nil
}

func (v *kasView) read() error {
	st, err := statefile.Read(v.h)
	if err != nil {
		return err
	}
	kas, err := renderedroot.ReadKAS(v.h, st)
	if err != nil {
		return err
	}
	if kas.EgressFile == "" {
		return nil
	}
	// A recorded egress file that is gone is no egress file, as status sees
	// it; a link, a FIFO or a device there is an error naming it.
	data, err := v.h.ReadFile(kas.EgressFile)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("rendered file listed in the state file: %w", err)
	}
	v.EgressFile, v.Egress, v.KASMount = v.h.Abs(kas.EgressFile), data, kas.Mount
	return nil
}

func (v *kasView) close() { v.h.Close() }

// KASHostPath maps a path inside the kube-apiserver container to the file
// under the root; ok is false when the mount does not cover it.
func (v *kasView) KASHostPath(containerPath string) (string, bool) {
	host, ok := v.KASMount.HostPath(containerPath)
	if !ok {
		return "", false
	}
	return v.h.Abs(path.Clean("/" + host)[1:]), true
}

// rel is a host path KASHostPath made, relative to the root.
func (v *kasView) rel(abs string) (string, error) {
	rel, err := filepath.Rel(v.h.Dir(), abs)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s is not under the root %s", abs, v.h.Dir())
	}
	return filepath.ToSlash(rel), nil
}

// host is how the dialer reaches the root's sockets and TLS files.
func (v *kasView) host() host {
	return host{
		dialUnix: func(ctx context.Context, socket string) (net.Conn, error) {
			rel, err := v.rel(socket)
			if err != nil {
				return nil, err
			}
			return v.h.DialUnix(ctx, rel)
		},
		readFile: func(abs string) ([]byte, error) {
			rel, err := v.rel(abs)
			if err != nil {
				return nil, err
			}
			return v.h.ReadFile(rel)
		},
	}
}

// exists is the kube-apiserver's check that a TLS file exists, made in the
// container's view: the file under the root behind the mount.
func (v *kasView) exists(containerPath string) bool {
	abs, ok := v.KASHostPath(containerPath)
	if !ok {
		return false
	}
	rel, err := v.rel(abs)
	if err != nil {
		return false
	}
	_, err = v.h.Regular(rel)
	return err == nil
}
