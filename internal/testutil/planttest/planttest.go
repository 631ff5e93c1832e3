// Package planttest puts at a path under a root what a broken or hostile
// host may hold there instead of the file a reader expects: a link to a
// real file (or listening socket) outside the root, a FIFO, a dangling
// link. It then tells whether anything outside was opened, and guards a
// reader's run so a hang fails the test instead of stalling it.
package planttest

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Kind is one thing planted in place of a path.
type Kind string

// What Plant puts at a path.
const (
	LinkOutside  Kind = "link to a valid file outside the root"
	FIFO         Kind = "FIFO"
	DanglingLink Kind = "dangling link"
)

// Kinds are every Kind, in the order tests run them.
var Kinds = []Kind{LinkOutside, FIFO, DanglingLink}

// Outside is the target a planted link points at.
type Outside struct {
	Path     string
	inotify  int
	listener *net.UnixListener
}

// Touched reports whether the outside file was opened or the outside
// socket connected to since Plant.
func (o *Outside) Touched(t *testing.T) bool {
	t.Helper()
	switch {
	case o == nil:
		return false
	case o.listener != nil:
		_ = o.listener.SetDeadline(time.Now())
		c, err := o.listener.Accept()
		if err == nil {
			c.Close()
			return true
		}
		return false
	}
	buf := make([]byte, 4096)
	n, err := unix.Read(o.inotify, buf)
	if errors.Is(err, unix.EAGAIN) {
		return false
	}
	if err != nil {
		t.Fatalf("read inotify events of %s: %v", o.Path, err)
	}
	return n > 0
}

// Plant replaces the regular file at path with kind. A link's outside
// target is a copy of the file, so a reader that followed it would succeed
// silently; Touched says whether it was opened.
func Plant(t *testing.T, path string, kind Kind) *Outside {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return plant(t, path, kind, func(target string) *Outside {
		if err := os.WriteFile(target, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unix.Close(fd) })
		if _, err := unix.InotifyAddWatch(fd, target, unix.IN_OPEN|unix.IN_ACCESS); err != nil {
			t.Fatal(err)
		}
		return &Outside{Path: target, inotify: fd}
	})
}

// PlantSocket is Plant for a unix socket's path: a link's outside target
// is a listening socket, and Touched says whether anything connected to it.
func PlantSocket(t *testing.T, path string, kind Kind) *Outside {
	t.Helper()
	return plant(t, path, kind, func(target string) *Outside {
		l, err := net.ListenUnix("unix", &net.UnixAddr{Name: target, Net: "unix"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return &Outside{Path: target, listener: l}
	})
}

func plant(t *testing.T, path string, kind Kind, outside func(target string) *Outside) *Outside {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	// a short directory: a socket's path must fit in 108 bytes
	dir, err := os.MkdirTemp("", "planted")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	target := filepath.Join(dir, filepath.Base(path))
	var o *Outside
	switch kind {
	case LinkOutside:
		o = outside(target)
		err = os.Symlink(target, path)
	case DanglingLink:
		err = os.Symlink(target+".gone", path)
	case FIFO:
		err = unix.Mkfifo(path, 0o644)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// NoHang runs f and fails the test if f has not returned after limit: the
// run under test is bounded by its own timeout, and limit is only a
// generous backstop so a hang is reported instead of stalling the suite.
func NoHang(t *testing.T, what string, limit time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("%s has not returned after %s: it hangs", what, limit)
	}
}
