package hostfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
)

// Every reader opens a path under the root in two steps. First an O_PATH
// descriptor, by openat2 with RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS on the
// path resolve checked: opening O_PATH reads nothing and runs no driver, so
// a FIFO cannot block and a device is never opened, and a link anywhere on
// the path, even one planted after resolve looked, fails the open instead
// of being followed. Then fstat says what the path is, and only the kind the
// caller asked for is opened for real, through /proc/self/fd, which reopens
// that same inode: nothing can be swapped in between.

// IsLinkError reports whether err refuses a symbolic link on a path.
func IsLinkError(err error) bool {
	var ue *UnsafeError
	return errors.As(err, &ue) && strings.Contains(ue.Problem, "symbolic link")
}

// kindError refuses a path that is not of the wanted kind.
func (r *Root) kindError(rel string, got, want fs.FileMode) error {
	if got.Type() == fs.ModeSymlink {
		return &UnsafeError{Path: r.Abs(rel), Problem: "is a symbolic link"}
	}
	return &UnsafeError{Path: r.Abs(rel), Problem: "is " + inputread.KindName(got) + ", not " + inputread.KindName(want)}
}

// pathFD is an O_PATH descriptor of a path under the root and what it is.
type pathFD struct {
	fd   int
	mode fs.FileMode
}

func (p *pathFD) close() { _ = unix.Close(p.fd) }

// procPath names the descriptor's inode for a reopen or a connect.
func (p *pathFD) procPath() string { return "/proc/self/fd/" + strconv.Itoa(p.fd) }

// openPath opens rel as an O_PATH descriptor (a link at rel is opened as
// itself, never followed) and says what it is.
func (r *Root) openPath(rel string) (*pathFD, error) {
	p, err := r.resolve(rel)
	if err != nil {
		return nil, err
	}
	dir, err := r.dirFD()
	if err != nil {
		return nil, err
	}
	how := unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	fd, err := openat2(dir, p, &how)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) {
		// a directory on the way became a link after resolve checked it
		r.forget(rel)
		if _, rerr := r.resolve(rel); rerr != nil {
			return nil, rerr
		}
		return nil, &UnsafeError{Path: r.Abs(rel), Problem: "has a symbolic link on its path"}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: r.Abs(rel), Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		_ = unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: r.Abs(rel), Err: err}
	}
	return &pathFD{fd: fd, mode: modeOf(st.Mode)}, nil
}

// openat2 falls back to openat, with resolve's checks alone, on a kernel
// older than 5.6.
func openat2(dir int, p string, how *unix.OpenHow) (int, error) {
	for {
		fd, err := unix.Openat2(dir, p, how)
		switch {
		case errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN):
			continue
		case errors.Is(err, unix.ENOSYS):
			return unix.Openat(dir, p, int(how.Flags), 0)
		}
		return fd, err
	}
}

// dirFD is the root directory's descriptor, opened once.
func (r *Root) dirFD() (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dirf == nil {
		f, err := r.r.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
		if err != nil {
			return -1, fmt.Errorf("open --root %s: %w", r.dir, err)
		}
		r.dirf = f
	}
	return int(r.dirf.Fd()), nil
}

// modeOf turns stat's st_mode into a FileMode's type and permission bits.
func modeOf(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	}
	return mode
}

// openAs opens rel for reading when it is of the kind want (0 a regular
// file, fs.ModeDir a directory), and refuses it, naming what it is,
// otherwise. A missing path is fs.ErrNotExist.
func (r *Root) openAs(rel string, want fs.FileMode, flags int) (*os.File, error) {
	p, err := r.openPath(rel)
	if err != nil {
		return nil, err
	}
	defer p.close()
	if p.mode.Type() != want {
		return nil, r.kindError(rel, p.mode, want)
	}
	fd, err := unix.Open(p.procPath(), flags|unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) { // no /proc: open again and compare inodes
		fd, err = r.reopen(rel, p, flags)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: r.Abs(rel), Err: err}
	}
	return os.NewFile(uintptr(fd), r.Abs(rel)), nil
}

// reopen opens rel again beneath the root when /proc is not mounted, and
// keeps it only if it is still the inode the O_PATH descriptor holds.
func (r *Root) reopen(rel string, p *pathFD, flags int) (int, error) {
	p2, err := r.resolve(rel)
	if err != nil {
		return -1, err
	}
	dir, err := r.dirFD()
	if err != nil {
		return -1, err
	}
	how := unix.OpenHow{
		Flags:   uint64(flags | unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOFOLLOW | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	fd, err := openat2(dir, p2, &how)
	if err != nil {
		return -1, err
	}
	var a, b unix.Stat_t
	if unix.Fstat(p.fd, &a) != nil || unix.Fstat(fd, &b) != nil || a.Dev != b.Dev || a.Ino != b.Ino {
		_ = unix.Close(fd)
		return -1, fmt.Errorf("changed while it was opened")
	}
	return fd, nil
}

// OpenRegular opens a regular file under the root for reading: a link
// anywhere on the path or at it, a FIFO, a device, a socket or a directory
// is an *UnsafeError naming the path and what it is; nothing but the
// regular file is ever opened. A missing file is fs.ErrNotExist.
func (r *Root) OpenRegular(rel string) (*os.File, error) {
	return r.openAs(rel, 0, 0)
}
