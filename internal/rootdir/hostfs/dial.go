package hostfs

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// DialUnix connects to the unix socket at rel under the root, within ctx
// (the caller's --timeout). The socket is opened O_PATH first, like every
// path a reader opens (open.go): a link anywhere on the way or at rel, a
// FIFO, a device or a regular file there is an *UnsafeError naming the path
// and what it is, and the connect goes to that very inode through
// /proc/self/fd, never to whatever a link points at. Errors are the ones a
// plain dial of the socket's absolute path gives (dial unix PATH: connect:
// ...), as the kube-apiserver logs them.
func (r *Root) DialUnix(ctx context.Context, rel string) (net.Conn, error) {
	abs := r.Abs(rel)
	p, err := r.openPath(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, dialError(abs, unix.ENOENT)
	}
	if err != nil {
		return nil, err
	}
	defer p.close()
	if p.mode.Type() != fs.ModeSocket {
		return nil, r.kindError(rel, p.mode, fs.ModeSocket)
	}
	addr := p.procPath()
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		addr = abs // no /proc: the path itself, just checked
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", addr)
	if err != nil {
		var oe *net.OpError
		if errors.As(err, &oe) {
			oe.Addr = &net.UnixAddr{Name: abs, Net: "unix"}
		}
		return nil, err
	}
	return conn, nil
}

// dialError is the error a dial of a missing socket gives.
func dialError(abs string, errno unix.Errno) error {
	return &net.OpError{Op: "dial", Net: "unix", Addr: &net.UnixAddr{Name: abs, Net: "unix"}, Err: os.NewSyscallError("connect", errno)}
}
